"""Minds (personas) from Slack, tried in the local demo as a research team would: create a Mind in a dialog and
follow its training on its card, add and remove knowledge, retrain, edit and delete it (a confirmation that names
it), and who may. The real bot in HTTP mode, the Slack emulator's signed requests, the Minds sandbox behind it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from slack_emulator.state import Ephemeral
from tests.e2e.desk import Desk, open_desk, shown

NORA = "Nora Nights"
ONLY_MANAGERS = "Only a workspace admin or the person who installed Minds can do that."
SLOW = 0.01  # one sandbox step is 5 s: a new Mind stays queued while the test reads its card
QUICK = 500.0


@pytest.fixture
async def desk(tmp_path: Path) -> AsyncIterator[Desk]:
    async with open_desk(tmp_path) as running:
        yield running


async def a_mind(desk: Desk, name: str = NORA) -> dict[str, Any]:
    body = {"name": name, "discipline": "Nursing", "mode": "keywords", "keywords": ["night shifts"]}
    created: dict[str, Any] = await desk.minds_api("POST", "/minds", body)
    return created


async def card(desk: Desk, user: str, *needles: str, name: str = NORA) -> Ephemeral:
    since = await desk.type(user, f'mind "{name}"')
    return await desk.private(user, since, *needles)


async def choose(desk: Desk, user: str, on: Ephemeral, action_id: str, value: str) -> str:
    """Pick ``value`` in the ⋯ menu ``action_id`` of the card ``on``."""
    since = desk.emu.mark()
    delivery = await desk.emu.select_option(
        user=user, action_id=action_id, value=value, channel=desk.research, ts=on.ts
    )
    assert delivery.ok, delivery.error
    return since


async def press(desk: Desk, user: str, on: Ephemeral, action_id: str) -> str:
    since = desk.emu.mark()
    delivery = await desk.emu.click_button(user=user, action_id=action_id, channel=desk.research, ts=on.ts)
    assert delivery.ok, delivery.error
    return since


async def test_a_mind_created_in_the_dialog_shows_its_training_and_refresh_follows_it(desk: Desk) -> None:
    await desk.faults(run_speed=SLOW)
    await desk.type(desk.ada, "mind new")
    dialog = await desk.modal(desk.ada, "New Mind", "How Minds trains it")
    inputs = {
        "name/value": NORA,
        "discipline/value": "Nursing",
        "description/value": "A night-shift nurse in Leeds who buys comfortable shoes",
        "keywords/value": "night shifts, patient care",
        "web/value": ["no_web"],
    }
    since = desk.emu.mark()
    assert (await desk.emu.submit_view(user=desk.ada, view_id=dialog.id, inputs=inputs)).ok
    made = await desk.private(desk.ada, since, f"Created the Mind *{NORA}* in Minds.")
    assert "Training: queued — Minds has not started yet. Refresh to follow it." in shown(made)
    assert "Minds says: Waiting for a training worker (no web research)" in shown(made)
    assert [m["name"] for m in await desk.minds_api("GET", f"/minds?search={NORA}")] == [NORA]

    await desk.faults(run_speed=QUICK)
    await press(desk, desk.ada, made, "mind_refresh")
    done = f"Training: done — ready to chat (`/minds chat {NORA}`)."

    def refreshed() -> Ephemeral | None:  # the same card, replaced in place
        return next((e for e in desk.emu.state.ephemerals(desk.ada) if e.ts == made.ts and done in shown(e)), None)

    card_now = await desk.wait(refreshed)
    assert "Created the Mind" not in shown(card_now), "the refreshed card is the card alone"


async def test_the_create_dialog_says_on_its_field_what_a_mode_needs_and_loses_nothing(desk: Desk) -> None:
    await desk.type(desk.ada, "mind new")
    dialog = await desk.modal(desk.ada, "New Mind")
    inputs = {"name/value": NORA, "discipline/value": "Nursing", "mode/value": "clone"}
    delivery = await desk.emu.submit_view(user=desk.ada, view_id=dialog.id, inputs=inputs)
    assert delivery.ok and delivery.body["response_action"] == "errors"
    said = delivery.body["errors"]
    assert said == {"persona": "A digital twin needs the person to model: their name and some context."}
    assert await desk.minds_api("GET", f"/minds?search={NORA}") == [], "nothing was created"


async def test_knowledge_is_added_from_the_card_and_removed_after_a_confirmation_naming_it(desk: Desk) -> None:
    await a_mind(desk)
    await desk.faults(run_speed=SLOW)
    shown_card = await card(desk, desk.ada, "Knowledge: none added yet.")
    await press(desk, desk.ada, shown_card, "mind_add_knowledge")
    dialog = await desk.modal(desk.ada, "Add knowledge to *Nora Nights*")
    inputs = {"link/value": "https://example.com/night-shift-survey", "description/value": "Survey of night nurses"}
    since = desk.emu.mark()
    assert (await desk.emu.submit_view(user=desk.ada, view_id=dialog.id, inputs=inputs)).ok
    added = await desk.private(desk.ada, since, "Minds queued “Survey of night nurses” for *Nora Nights*'s knowledge")
    assert "Knowledge: 1 source" in shown(added)
    assert "• Survey of night nurses — https://example.com/night-shift-survey — queued" in shown(added)

    [menu] = [a for a in _actions(added) if a.startswith("mind_source:")]
    [mind] = await desk.minds_api("GET", f"/minds?search={NORA}")
    await choose(desk, desk.ada, added, menu, f"remove:{mind['id']}")
    confirm = await desk.modal(desk.ada, "Remove knowledge")
    assert "Remove “Survey of night nurses” from *Nora Nights*'s knowledge?" in shown(confirm)
    since = desk.emu.mark()
    assert (await desk.emu.submit_view(user=desk.ada, view_id=confirm.id)).ok
    gone = await desk.private(desk.ada, since, "Removed “Survey of night nurses” from *Nora Nights*'s knowledge")
    assert "Knowledge: none added yet." in shown(gone)


async def test_retrain_queues_training_again_and_edit_saves_the_new_name(desk: Desk) -> None:
    await a_mind(desk)
    await desk.faults(run_speed=QUICK)
    ready = await card(desk, desk.ada, "Training: done")
    await desk.faults(run_speed=SLOW)
    since = await press(desk, desk.ada, ready, "mind_retrain")
    retrained = await desk.private(desk.ada, since, "Minds queued retraining of *Nora Nights*")
    assert "Training: queued" in shown(retrained) and "mind_retrain" not in _actions(retrained)

    await press(desk, desk.ada, retrained, "mind_edit")
    dialog = await desk.modal(desk.ada, "Edit Mind")
    since = desk.emu.mark()
    assert (await desk.emu.submit_view(user=desk.ada, view_id=dialog.id, inputs={"name/value": "Nora N."})).ok
    await desk.private(desk.ada, since, "Saved the changes to *Nora N.* in Minds.")
    assert [m["name"] for m in await desk.minds_api("GET", "/minds?search=Nora")] == ["Nora N."]


async def test_delete_asks_with_the_minds_name_and_what_goes_with_it_then_deletes_it(desk: Desk) -> None:
    mind = await a_mind(desk)
    await desk.minds_api(
        "POST", f"/minds/{mind['id']}/knowledge", {"link": "https://example.com/a", "description": "Shift patterns"}
    )
    shown_card = await card(desk, desk.ada, "Knowledge: 1 source")
    await press(desk, desk.ada, shown_card, "mind_delete")
    confirm = await desk.modal(desk.ada, "Delete Mind")
    assert (
        "Delete the Mind *Nora Nights*? Minds deletes it for good with its knowledge (1 source), its patterns and "
        "its chat history. Studies and Audiences no longer include it. This cannot be undone."
    ) in shown(confirm)
    since = desk.emu.mark()
    assert (await desk.emu.submit_view(user=desk.ada, view_id=confirm.id)).ok
    await desk.private(desk.ada, since, "Deleted the Mind *Nora Nights* in Minds, with its knowledge and chat history.")
    assert await desk.minds_api("GET", f"/minds?search={NORA}") == []


async def test_someone_who_does_not_act_for_the_minds_account_sees_the_card_but_changes_nothing(desk: Desk) -> None:
    await a_mind(desk)
    await desk.faults(run_speed=QUICK)  # trained: the card offers Retrain too
    since = await desk.type(desk.ben, "mind new")
    await desk.private(desk.ben, since, ONLY_MANAGERS)
    shown_card = await card(desk, desk.ben, "Nora Nights", "Training: done")
    for action in ("mind_delete", "mind_retrain", "mind_add_knowledge", "mind_edit"):
        since = await press(desk, desk.ben, shown_card, action)
        await desk.private(desk.ben, since, ONLY_MANAGERS)
    [mind] = await desk.minds_api("GET", f"/minds?search={NORA}")
    for verb in ("portrait", "embeddings", "enrich"):
        since = await choose(desk, desk.ben, shown_card, "mind_more", f"{verb}:{mind['id']}")
        await desk.private(desk.ben, since, ONLY_MANAGERS)
    since = await choose(desk, desk.ben, shown_card, "mind_more", f"patterns:{mind['id']}")
    await desk.private(desk.ben, since, "Minds has no patterns for *Nora Nights* yet")
    assert desk.emu.state.modal_stack(desk.ben) == [], "no dialog was opened for him"
    assert [m["name"] for m in await desk.minds_api("GET", f"/minds?search={NORA}")] == [NORA]


def _actions(item: Ephemeral) -> list[str]:
    found = []
    for block in item.blocks:
        accessory = block.get("accessory") or {}
        if accessory.get("action_id"):
            found.append(accessory["action_id"])
        found += [e.get("action_id", "") for e in block.get("elements", []) if isinstance(e, dict)]
    return found


async def test_a_second_retrain_from_an_older_card_is_told_the_mind_is_still_training(desk: Desk) -> None:
    await a_mind(desk)
    await desk.faults(run_speed=QUICK)
    ready = await card(desk, desk.ada, "Training: done")
    await desk.faults(run_speed=SLOW)
    since = await press(desk, desk.ada, ready, "mind_retrain")
    await desk.private(desk.ada, since, "Minds queued retraining of *Nora Nights*")
    since = await press(desk, desk.ada, ready, "mind_retrain")  # the older card still offers it
    await desk.private(
        desk.ada,
        since,
        "*Nora Nights* is still training, so Minds did not queue another retrain. Refresh the card to follow it.",
    )


async def test_the_knowledge_dialog_takes_one_page_or_one_file_and_says_so_on_the_field(desk: Desk) -> None:
    await a_mind(desk)
    shown_card = await card(desk, desk.ada, "Knowledge: none added yet.")
    await press(desk, desk.ada, shown_card, "mind_add_knowledge")
    dialog = await desk.modal(desk.ada, "Add knowledge to *Nora Nights*")
    inputs = {
        "link/value": "https://example.com/a",
        "file/value": "https://example.com/b.pdf",
        "description/value": "Two things",
    }
    delivery = await desk.emu.submit_view(user=desk.ada, view_id=dialog.id, inputs=inputs)
    assert delivery.ok and delivery.body["errors"] == {"link": "Give one web page or one file's address (not both)."}
    [mind] = await desk.minds_api("GET", f"/minds?search={NORA}")
    assert (await desk.minds_api("GET", f"/minds/{mind['id']}/knowledge"))["items"] == [], "nothing was added"


async def test_a_manual_mind_gets_its_prompt_rebuilt_once_it_has_knowledge(desk: Desk) -> None:
    body = {"name": "Quiet One", "discipline": "Retail", "mode": "manual"}
    mind = await desk.minds_api("POST", "/minds", body)
    failed = await card(
        desk, desk.ada, "Training: failed (PROFILE_GEN_FAILED). Retrain may recover it.", name="Quiet One"
    )
    assert "It has no prompt yet: add knowledge, then press *Rebuild prompt*." in shown(failed)
    since = await press(desk, desk.ada, failed, "mind_prompt")
    await desk.private(desk.ada, since, "Minds could not build a prompt for *Quiet One*:", "Add knowledge")

    await desk.faults(run_speed=QUICK)
    link = {"link": "https://example.com/q", "description": "Shop notes"}
    await desk.minds_api("POST", f"/minds/{mind['id']}/knowledge", link)
    since = await press(desk, desk.ada, failed, "mind_prompt")
    rebuilt = await desk.private(desk.ada, since, "Minds rebuilt *Quiet One*'s prompt from its knowledge.")
    assert "Training: done — ready to chat (`/minds chat Quiet One`)." in shown(rebuilt)


async def test_the_cards_menu_regenerates_the_portrait_and_keeps_one_unless_told_to_replace_it(desk: Desk) -> None:
    mind = await a_mind(desk)
    shown_card = await card(desk, desk.ada, "Nora Nights")
    await choose(desk, desk.ada, shown_card, "mind_more", f"portrait:{mind['id']}")
    dialog = await desk.modal(desk.ada, "*Nora Nights* has no portrait yet: Minds makes one.")
    since = desk.emu.mark()
    inputs = {"persona_context/value": "A nurse in her forties, tired but warm"}
    assert (await desk.emu.submit_view(user=desk.ada, view_id=dialog.id, inputs=inputs)).ok
    await desk.private(
        desk.ada, since, "Minds queued a new portrait for *Nora Nights*; the card shows it once it is made."
    )
    assert (await desk.minds_api("GET", f"/minds/{mind['id']}"))["profileImageUrl"]

    await choose(desk, desk.ada, shown_card, "mind_more", f"portrait:{mind['id']}")
    dialog = await desk.modal(desk.ada, "*Nora Nights* has a portrait: Minds keeps it unless you tick")
    since = desk.emu.mark()
    assert (await desk.emu.submit_view(user=desk.ada, view_id=dialog.id)).ok
    await desk.private(
        desk.ada,
        since,
        "Minds kept *Nora Nights*'s portrait (image already set (pass force=true to regenerate)). To replace it, "
        "tick “Replace the current portrait”.",
    )
    await choose(desk, desk.ada, shown_card, "mind_more", f"portrait:{mind['id']}")
    dialog = await desk.modal(desk.ada, "has a portrait")
    since = desk.emu.mark()
    assert (await desk.emu.submit_view(user=desk.ada, view_id=dialog.id, inputs={"force/value": ["force"]})).ok
    await desk.private(desk.ada, since, "Minds queued a new portrait for *Nora Nights*")
    assert (await desk.minds_api("GET", f"/minds/{mind['id']}"))["profileImageUrl"].endswith("/2.png")


async def test_the_cards_menu_rebuilds_the_index_and_shows_the_patterns_its_knowledge_gave(desk: Desk) -> None:
    mind = await a_mind(desk)
    await desk.faults(run_speed=QUICK)
    link = {"link": "https://example.com/shifts", "description": "Shift survey"}
    await desk.minds_api("POST", f"/minds/{mind['id']}/knowledge", link)
    shown_card = await card(desk, desk.ada, "• Shift survey — https://example.com/shifts — ready")
    since = await choose(desk, desk.ada, shown_card, "mind_more", f"embeddings:{mind['id']}")
    await desk.private(
        desk.ada,
        since,
        "Minds queued a rebuild of *Nora Nights*'s knowledge index; until it finishes, answers use the index as it "
        "was.",
    )
    since = await choose(desk, desk.ada, shown_card, "mind_more", f"patterns:{mind['id']}")
    rows = await desk.private(desk.ada, since, "*Nora Nights*: 2 patterns, newest first")
    assert "• *Openness to Experience*: “Draws on “Shift survey”.”" in shown(rows)
    since = await choose(desk, desk.ada, shown_card, "mind_more", f"frameworks:{mind['id']}")
    grouped = await desk.private(desk.ada, since, "*Nora Nights*: 2 patterns by framework")
    assert "*Big Five (OCEAN)* · 1\\nOpenness to Experience (1)" in shown(grouped)


async def test_enrich_from_keywords_queues_web_research_and_the_card_lists_it(desk: Desk) -> None:
    mind = await a_mind(desk)
    await desk.faults(run_speed=SLOW)
    shown_card = await card(desk, desk.ada, "Knowledge: none added yet.")
    await choose(desk, desk.ada, shown_card, "mind_more", f"enrich:{mind['id']}")
    dialog = await desk.modal(desk.ada, "Minds searches the web for each keyword")
    too_many = ", ".join(f"topic {n}" for n in range(16))
    delivery = await desk.emu.submit_view(user=desk.ada, view_id=dialog.id, inputs={"keywords/value": too_many})
    assert delivery.ok and delivery.body["errors"] == {"keywords": "At most 15 keywords."}
    since = desk.emu.mark()
    inputs = {"keywords/value": "shoe comfort, night shifts, shoe comfort", "keep_prompt/value": ["keep"]}
    assert (await desk.emu.submit_view(user=desk.ada, view_id=dialog.id, inputs=inputs)).ok
    enriched = await desk.private(
        desk.ada,
        since,
        "Minds queued web research on shoe comfort, night shifts for *Nora Nights*'s knowledge; each source is used "
        "once it is ready.",
    )
    assert "Knowledge: 2 sources" in shown(enriched)
    assert "• Web research: shoe comfort — https://search.example.com/?q=shoe%20comfort — queued" in shown(enriched)


async def test_a_sources_description_is_edited_from_its_menu_and_the_card_shows_it(desk: Desk) -> None:
    mind = await a_mind(desk)
    link = {"link": "https://example.com/shifts", "description": "Shift survey"}
    await desk.minds_api("POST", f"/minds/{mind['id']}/knowledge", link)
    shown_card = await card(desk, desk.ada, "Knowledge: 1 source")
    [menu] = [a for a in _actions(shown_card) if a.startswith("mind_source:")]
    await choose(desk, desk.ada, shown_card, menu, f"edit:{mind['id']}")
    dialog = await desk.modal(desk.ada, "A new description for this source of *Nora Nights*'s knowledge.")
    delivery = await desk.emu.submit_view(user=desk.ada, view_id=dialog.id, inputs={"description/value": "  "})
    assert delivery.ok and delivery.body["errors"] == {
        "description": "Say in a few words what it is: Minds needs a description."
    }
    since = desk.emu.mark()
    inputs = {"description/value": "Survey of 400 night nurses"}
    assert (await desk.emu.submit_view(user=desk.ada, view_id=dialog.id, inputs=inputs)).ok
    saved = await desk.private(
        desk.ada, since, "Saved the description “Survey of 400 night nurses” of a source of *Nora Nights*'s knowledge"
    )
    assert "• Survey of 400 night nurses — https://example.com/shifts" in shown(saved)


async def test_several_minds_are_deleted_from_a_minds_page_after_a_confirmation_naming_each(desk: Desk) -> None:
    nora, other = await a_mind(desk), await a_mind(desk, "Nora Days")
    await a_mind(desk, "Nora Evenings")
    since = await desk.type(desk.ada, "minds Nora")
    page = await desk.private(desk.ada, since, "Delete several…")
    await press(desk, desk.ada, page, "minds_delete_many")
    pick = await desk.modal(desk.ada, "Choose the Minds to delete")
    chosen = {"minds/value": [nora["id"], other["id"]]}
    assert (await desk.emu.submit_view(user=desk.ada, view_id=pick.id, inputs=chosen)).ok
    confirm = await desk.modal(desk.ada, "Delete these 2 Minds for good?")
    assert "• *Nora Nights*" in shown(confirm) and "• *Nora Days*" in shown(confirm)
    assert "Nora Evenings" not in shown(confirm)
    assert len(await desk.minds_api("GET", "/minds?search=Nora")) == 3, "nothing is deleted before the confirmation"
    since = desk.emu.mark()
    assert (await desk.emu.submit_view(user=desk.ada, view_id=confirm.id)).ok
    said = await desk.private(desk.ada, since, "Deleted 2 Minds in Minds:")
    assert "Nora Nights" in shown(said) and "Nora Days" in shown(said)
    assert [m["name"] for m in await desk.minds_api("GET", "/minds?search=Nora")] == ["Nora Evenings"]


async def test_someone_who_does_not_act_for_the_minds_account_cannot_delete_several(desk: Desk) -> None:
    await a_mind(desk)
    since = await desk.type(desk.ben, "minds Nora")
    page = await desk.private(desk.ben, since, "Delete several…")
    since = await press(desk, desk.ben, page, "minds_delete_many")
    await desk.private(desk.ben, since, ONLY_MANAGERS)
    assert desk.emu.state.modal_stack(desk.ben) == [], "no dialog was opened for him"


async def test_a_mind_deleted_elsewhere_before_the_confirmation_is_named_with_minds_reason(desk: Desk) -> None:
    nora, other = await a_mind(desk), await a_mind(desk, "Nora Days")
    since = await desk.type(desk.ada, "minds Nora")
    page = await desk.private(desk.ada, since, "Delete several…")
    await press(desk, desk.ada, page, "minds_delete_many")
    pick = await desk.modal(desk.ada, "Choose the Minds to delete")
    assert (
        await desk.emu.submit_view(user=desk.ada, view_id=pick.id, inputs={"minds/value": [nora["id"], other["id"]]})
    ).ok
    confirm = await desk.modal(desk.ada, "Delete these 2 Minds for good?")
    gone = await desk.minds_api("DELETE", "/minds", {"mindIds": [other["id"]]})  # deleted in Minds meanwhile
    assert gone["results"] == [{"mindId": other["id"], "deleted": True}]
    since = desk.emu.mark()
    assert (await desk.emu.submit_view(user=desk.ada, view_id=confirm.id)).ok
    said = await desk.private(desk.ada, since, "Deleted 1 Mind in Minds: Nora Nights.")
    assert "Minds did not delete 1 Mind: Nora Days (Mind not found)." in shown(said)


async def test_someone_who_does_not_act_for_the_minds_account_cannot_edit_or_remove_a_source(desk: Desk) -> None:
    mind = await a_mind(desk)
    link = {"link": "https://example.com/shifts", "description": "Shift survey"}
    await desk.minds_api("POST", f"/minds/{mind['id']}/knowledge", link)
    shown_card = await card(desk, desk.ben, "Knowledge: 1 source")
    [menu] = [a for a in _actions(shown_card) if a.startswith("mind_source:")]
    for verb in ("edit", "remove"):
        since = await choose(desk, desk.ben, shown_card, menu, f"{verb}:{mind['id']}")
        await desk.private(desk.ben, since, ONLY_MANAGERS)
    assert desk.emu.state.modal_stack(desk.ben) == [], "no dialog was opened for him"
