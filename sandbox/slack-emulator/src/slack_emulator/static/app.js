// The Slack emulator page: polls /_emulator/state, renders channels, threads, modals and App Home,
// and posts the user's actions to /_emulator/ui/*. Vanilla JS; nothing is loaded from the network.
"use strict";

(function () {
  const { h, mrkdwn, renderBlocks, collectInputs, plain, emoji } = window.BlockKit;
  const LOCALES = ["en-US", "en-GB", "de-DE", "es-ES", "zh-CN", "ko-KR", "fr-FR", "pt-BR", "ja-JP"];
  const HOME = "__home__";
  const STEPS = "__workflow_steps__";
  const $ = (id) => document.getElementById(id);

  const page = {
    me: localStorage.getItem("emulator.user") || null,
    channel: null,
    thread: null,
    highlight: null,
    snapshot: null,
    version: -1,
    poll: null,
  };

  // ---- server calls

  async function ui(action, body) {
    const response = await fetch(`/_emulator/ui/${action}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ user: page.me, ...body }),
    });
    const result = await response.json();
    if (!result.ok) toast(result.error || "Request failed");
    else if (result.delivery && result.delivery.error) toast(`The app failed with the error "${result.delivery.error}"`);
    return result;
  }

  async function pollLoop() {
    for (;;) {
      const controller = new AbortController();
      page.poll = controller;
      try {
        const url = `/_emulator/state?user=${encodeURIComponent(page.me || "")}&since=${page.version}`;
        const response = await fetch(url, { signal: controller.signal });
        const snapshot = await response.json();
        page.version = snapshot.version;
        page.snapshot = snapshot;
        if (!page.me) page.me = snapshot.me;
        render();
      } catch (error) {
        if (error.name !== "AbortError") await new Promise((resolve) => setTimeout(resolve, 1000)); // server restarting
      }
    }
  }

  function refreshNow() {
    page.version = -1;
    if (page.poll) page.poll.abort();
  }

  // ---- helpers

  function toast(text) {
    const node = $("toast");
    node.textContent = text;
    node.hidden = false;
    clearTimeout(toast.timer);
    toast.timer = setTimeout(() => { node.hidden = true; }, 5000);
  }

  function userById(id) {
    return (page.snapshot.users || []).find((u) => u.id === id);
  }

  function me() {
    return userById(page.me) || page.snapshot.users[0];
  }

  function timeOf(ts) {
    const date = new Date(parseFloat(ts) * 1000);
    return new Intl.DateTimeFormat(me().locale, { hour: "2-digit", minute: "2-digit", timeZone: me().tz }).format(date);
  }

  function confirmDialog(confirm) {
    const dialog = $("confirm-dialog");
    $("confirm-title").textContent = plain(confirm.title);
    $("confirm-text").innerHTML = confirm.text && confirm.text.type === "mrkdwn" ? mrkdwn(confirm.text.text, ctxBase()) : "";
    if (!confirm.text || confirm.text.type !== "mrkdwn") $("confirm-text").textContent = plain(confirm.text);
    $("confirm-ok").textContent = plain(confirm.confirm) || "Confirm";
    $("confirm-ok").className = confirm.style === "danger" ? "danger" : "primary";
    $("confirm-deny").textContent = plain(confirm.deny) || "Cancel";
    dialog.returnValue = "";
    dialog.showModal();
    return new Promise((resolve) => dialog.addEventListener("close", () => resolve(dialog.returnValue === "confirm"), { once: true }));
  }

  function ctxBase() {
    const viewer = me();
    return { users: page.snapshot.users, channels: page.snapshot.channels, confirm: confirmDialog,
      viewer: { locale: viewer.locale, tz: viewer.tz } };
  }

  // What this person chose on each message's selects and checkboxes, so a redraw keeps it (Slack's client does).
  const choices = new Map();
  const choiceKey = (channel, ts, block, element) => [page.me, channel, ts, block.block_id, element.action_id].join("/");

  function messageCtx(channel, ts) {
    return {
      ...ctxBase(),
      chosen: (block, element) => choices.get(choiceKey(channel, ts, block, element)),
      onAction: (block, element, selection) => {
        if (element.type !== "button" && element.type !== "overflow") choices.set(choiceKey(channel, ts, block, element), selection);
        return ui("action", { channel, ts, block_id: block.block_id, action_id: element.action_id, selection });
      },
      onOptions: async (block, element, value) => {
        const result = await ui("options", { channel, ts, block_id: block.block_id, action_id: element.action_id, value });
        return result.options || [];
      },
    };
  }

  function viewCtx(view, root) {
    return {
      ...ctxBase(),
      errors: view.errors || {},
      onAction: (block, element, selection) =>
        ui("action", {
          view_id: view.id, block_id: block.block_id, action_id: element.action_id, selection,
          inputs: root ? collectInputs(root()) : {},
        }),
      onOptions: async (block, element, value) => {
        const result = await ui("options", { view_id: view.id, block_id: block.block_id, action_id: element.action_id, value });
        return result.options || [];
      },
    };
  }

  // ---- rendering

  function render() {
    const snap = page.snapshot;
    if (!snap) return;
    if (!page.channel) page.channel = snap.start_channel || (snap.channels[0] || {}).id;
    // An address may name the channel (#channel=research) as the console prints it, or give its id.
    const named = snap.channels.find((c) => !c.is_im && c.name === page.channel);
    if (named) page.channel = named.id;
    $("team-name").textContent = snap.team.name;
    renderNotice();
    renderSwitchers();
    renderNav();
    renderWarnings();
    if (page.channel === HOME) renderHome();
    else if (page.channel === STEPS) renderSteps();
    else renderChannel();
    renderThread();
    renderModal();
  }

  function renderSwitchers() {
    const users = $("user-switch");
    users.replaceChildren(...page.snapshot.users.map((u) =>
      h("option", { value: u.id, selected: u.id === page.me }, `${u.real_name}${u.is_admin ? " (admin)" : ""} · ${u.tz}`)));
    const locales = $("locale-switch");
    const current = me().locale;
    const all = LOCALES.includes(current) ? LOCALES : [current, ...LOCALES];
    locales.replaceChildren(...all.map((l) => h("option", { value: l, selected: l === current }, l)));
    // The workspace's language: an admin's setting in Slack, so only an admin may change it here.
    const team = $("team-locale-switch");
    const teamLocale = page.snapshot.team.locale;
    const teamAll = LOCALES.includes(teamLocale) ? LOCALES : [teamLocale, ...LOCALES];
    team.replaceChildren(...teamAll.map((l) => h("option", { value: l, selected: l === teamLocale }, l)));
    team.disabled = !me().is_admin;
    team.title = me().is_admin ? "" : "Only a workspace admin can change this";
  }

  function navItem(id, label) {
    const open = () => {
      page.channel = id; page.thread = null; render();
      if (id === HOME) ui("home", {});  // Slack tells the app its Home tab was opened
    };
    return h("li", { className: id === page.channel ? "active" : "", onclick: open }, label);
  }

  function renderNav() {
    const snap = page.snapshot;
    const steps = (snap.steps || []).length ? [navItem(STEPS, "⚙️ Workflow steps")] : [];
    $("apps").replaceChildren(navItem(HOME, `🤖 ${snap.bot.name} · Home`), ...steps);
    // A private channel shows a lock, as in Slack; the page lists only those the person is in.
    $("channels").replaceChildren(...snap.channels.filter((c) => !c.is_im).map((c) => navItem(c.id, `${c.is_private ? "🔒" : "#"} ${c.name}`)));
    $("dms").replaceChildren(...snap.channels.filter((c) => c.is_im).map((c) => navItem(c.id, `💬 ${snap.bot.name}`)));
  }

  function renderNotice() {
    const notice = $("notice");
    notice.textContent = page.snapshot.notice || "";
    notice.hidden = !page.snapshot.notice;
  }

  function openThread(channelId, ts) {
    page.thread = { channel: channelId, ts };
    render();
    $("thread-text").focus();
  }

  function renderWarnings() {
    $("warnings").replaceChildren(...page.snapshot.warnings.slice(-3).map((w) =>
      h("div", { className: "warning" }, "⚠️ ", h("b", {}, w.error), " — ", w.detail)));
  }

  function renderChannel() {
    const snap = page.snapshot;
    const channel = snap.channels.find((c) => c.id === page.channel);
    if (!channel) { page.channel = null; return; }
    const title = channel.is_im ? snap.bot.name : `${channel.is_private ? "🔒" : "#"} ${channel.name}`;
    const notMember = channel.bot_is_member || channel.is_im ? [] : [h("span", { className: "topic" }, `(${snap.bot.name} is not a member)`)];
    $("channel-header").replaceChildren(title, h("span", { className: "topic" }, channel.topic.value || ""), ...notMember);
    const messages = (snap.messages[channel.id] || []).filter((m) => !m.thread_ts || m.thread_ts === m.ts || m.subtype === "thread_broadcast");
    const ephemerals = snap.ephemerals.filter((e) => e.channel === channel.id && !e.thread_ts);
    const items = [...messages.map((m) => ({ ts: m.ts, node: () => messageNode(channel.id, m, true) })),
      ...ephemerals.map((e) => ({ ts: e.ts, node: () => ephemeralNode(e) }))];
    items.sort((a, b) => parseFloat(a.ts) - parseFloat(b.ts));
    const timeline = $("timeline");
    const atBottom = timeline.scrollHeight - timeline.scrollTop - timeline.clientHeight < 40;
    timeline.replaceChildren(...(items.length ? items.map((i) => i.node()) : [h("div", { className: "empty" }, "No messages yet. Try /minds help")]));
    $("composer").hidden = false;
    if (atBottom) timeline.scrollTop = timeline.scrollHeight;
  }

  function renderHome() {
    const snap = page.snapshot;
    $("channel-header").replaceChildren(`${snap.bot.name} · Home`);
    $("composer").hidden = true;
    const home = snap.home;
    if (!home) {
      $("timeline").replaceChildren(h("div", { className: "empty" }, "The app has not published a Home tab for you yet."));
      return;
    }
    let root = null;
    root = h("div", { className: "home" }, renderBlocks(home.blocks, viewCtx(home, () => root)));
    $("timeline").replaceChildren(root);
  }

  // Workflow Builder in miniature: each step the app's manifest declares, with its inputs typed here, and
  // "Run workflow step" (Slack sends the app function_executed); below, each run with its outputs or error.
  const stepInputs = {};

  function defaultInput(name) {
    if (name === "channel") return page.snapshot.start_channel || "";
    return "";
  }

  function stepForm(step) {
    const typed = stepInputs[step.callback_id] || (stepInputs[step.callback_id] = {});
    const fields = step.inputs.map((name) => {
      if (typed[name] === undefined) typed[name] = defaultInput(name);
      const input = h("input", { type: "text", value: typed[name], "aria-label": `${step.title}: ${name}` });
      input.addEventListener("input", () => { typed[name] = input.value; });
      return h("label", { className: "field" }, `${name} `, input);
    });
    // Slack fills a user_context with the person who runs the workflow: nobody types it.
    const runner = me();
    const filled = (step.filled || []).map((name) =>
      h("div", { className: "field" }, `${name}: @${runner ? runner.name : page.me} (filled by Slack: whoever runs the workflow)`));
    const run = h("button", { type: "button", onclick: async () => {
      run.disabled = true;
      try { await ui("function", { callback_id: step.callback_id, inputs: { ...typed } }); } finally { run.disabled = false; }
    } }, "Run workflow step");
    return h("div", { className: "step", dataset: { callbackId: step.callback_id } }, h("b", {}, step.title), ...fields, ...filled, run);
  }

  function stepRunNode(run) {
    const outcome = run.status === "failed"
      ? h("div", { className: "step-error" }, `Error: ${run.error}`)
      : run.outputs ? h("pre", {}, JSON.stringify(run.outputs, null, 2)) : h("div", {}, "Running — waiting for the app to complete it…");
    return h("div", { className: `step-run ${run.status}` }, h("div", { className: "meta" }, `${run.callback_id} · ${run.id} · ${run.status}`), outcome);
  }

  function renderSteps() {
    const snap = page.snapshot;
    $("channel-header").replaceChildren("Workflow steps", h("span", { className: "topic" }, `from ${snap.bot.name}'s manifest`));
    $("composer").hidden = true;
    $("timeline").replaceChildren(...(snap.steps || []).map(stepForm), h("h3", {}, "Runs"),
      ...((snap.step_runs || []).length ? snap.step_runs.map(stepRunNode) : [h("div", { className: "empty" }, "No step has run yet.")]));
  }

  function authorNode(message) {
    const snap = page.snapshot;
    const isBot = message.bot_id || message.user === snap.bot.id;
    const user = userById(message.user);
    const name = isBot ? snap.bot.name : user ? user.real_name : message.user;
    return { isBot, name };
  }

  // An image is shown inline, as Slack does, with its title and a download link under it; any other file is a card.
  function isImage(f) {
    return String(f.mimetype || "").startsWith("image/") || /\.(png|jpe?g|gif|webp)$/i.test(f.name || "");
  }

  function fileNode(f) {
    const download = h("a", { href: f.url_private_download, download: f.name }, "Download");
    if (isImage(f)) {
      return h("figure", { className: "file-image" },
        h("img", { src: f.url_private, alt: f.title || f.name }),
        h("figcaption", {}, f.title || f.name, " · ", download));
    }
    return h("div", { className: "file-card" }, "📄 ", h("b", {}, f.title), ` · ${f.name} · ${f.size} bytes · `, download);
  }

  function messageNode(channelId, message, showReplies) {
    const { isBot, name } = authorNode(message);
    const ctx = messageCtx(channelId, message.ts);
    const body = message.blocks && message.blocks.length
      ? renderBlocks(message.blocks, ctx)
      : Object.assign(h("div"), { innerHTML: mrkdwn(message.text, ctx) });
    const files = (message.files || []).map(fileNode);
    const unfurls = (message.attachments || []).filter((a) => a.is_app_unfurl)
      .map((a) => h("div", { className: "unfurl", dataset: { url: a.app_unfurl_url } }, renderBlocks(a.blocks, ctx)));
    const reactions = message.reactions
      ? h("div", { className: "reactions" }, message.reactions.map((r) => h("span", {}, `${emoji(r.name)} ${r.count}`)))
      : null;
    const replies = showReplies && message.reply_count
      ? h("div", { className: "replies-link", onclick: () => openThread(channelId, message.ts) },
        `${message.reply_count} ${message.reply_count === 1 ? "reply" : "replies"}`)
      : null;
    // As in Slack, any message of the channel can start a thread, replies or not.
    const replyButton = showReplies
      ? h("button", { type: "button", className: "reply-in-thread", title: "Reply in thread", "aria-label": "Reply in thread",
        onclick: () => openThread(channelId, message.ts) }, "Reply")
      : null;
    const highlight = page.highlight === message.ts ? " highlight" : "";
    return h("div", { className: `message${highlight}`, dataset: { ts: message.ts } },
      h("div", { className: `avatar${isBot ? " bot" : ""}` }, name.slice(0, 1).toUpperCase()),
      h("div", { className: "message-body" },
        h("div", { className: "meta" }, h("span", { className: "name" }, name), isBot ? h("span", { className: "badge" }, "APP") : null,
          timeOf(message.ts), message.edited ? " (edited)" : "", replyButton, shortcutMenu(channelId, message.ts)),
        body, unfurls, files, reactions, replies));
  }

  // The ⋯ menu of a message: the app's message shortcuts, as Slack lists them under "More actions".
  function shortcutMenu(channelId, ts) {
    const shortcuts = page.snapshot.shortcuts || [];
    if (!shortcuts.length) return null;
    const list = h("div", { className: "shortcut-list", hidden: true },
      shortcuts.map((s) => h("button", { type: "button", onclick: () => {
        list.hidden = true;
        ui("shortcut", { channel: channelId, ts, callback_id: s.callback_id });
      } }, s.name)));
    const toggle = h("button", { type: "button", className: "more-actions", title: "More actions", "aria-label": "More actions",
      onclick: () => { list.hidden = !list.hidden; } }, "⋯");
    return h("span", { className: "shortcut-menu" }, toggle, list);
  }

  function ephemeralNode(ephemeral) {
    const ctx = messageCtx(ephemeral.channel, ephemeral.ts);
    const body = ephemeral.blocks && ephemeral.blocks.length
      ? renderBlocks(ephemeral.blocks, ctx)
      : Object.assign(h("div"), { innerHTML: mrkdwn(ephemeral.text, ctx) });
    const bot = page.snapshot.bot.name;
    return h("div", { className: "message ephemeral", dataset: { ts: ephemeral.ts } },
      h("div", { className: "avatar bot" }, bot.slice(0, 1).toUpperCase()),
      h("div", { className: "message-body" },
        h("div", { className: "meta" }, h("span", { className: "name" }, bot), h("span", { className: "badge" }, "APP"), timeOf(ephemeral.ts)),
        body, h("div", { className: "only-you" }, "👁 Only visible to you")));
  }

  function renderThread() {
    const pane = $("thread");
    if (!page.thread) { pane.hidden = true; return; }
    const { channel, ts } = page.thread;
    const all = page.snapshot.messages[channel] || [];
    const parent = all.find((m) => m.ts === ts);
    if (!parent) { page.thread = null; pane.hidden = true; return; }
    const replies = all.filter((m) => m.thread_ts === ts && m.ts !== ts);
    const ephemerals = page.snapshot.ephemerals.filter((e) => e.channel === channel && e.thread_ts === ts);
    const items = [...replies.map((m) => ({ ts: m.ts, node: () => messageNode(channel, m, false) })),
      ...ephemerals.map((e) => ({ ts: e.ts, node: () => ephemeralNode(e) }))];
    items.sort((a, b) => parseFloat(a.ts) - parseFloat(b.ts));
    $("thread-timeline").replaceChildren(messageNode(channel, parent, false), h("hr", { className: "bk-divider" }), ...items.map((i) => i.node()));
    pane.hidden = false;
  }

  function renderModal() {
    const layer = $("modal-layer");
    const stack = page.snapshot.modals || [];
    const view = stack[stack.length - 1];
    if (!view) { layer.hidden = true; layer.replaceChildren(); layer.dataset.key = ""; return; }
    // Keep what the user typed: only rebuild when the view itself changed.
    const key = `${view.id}:${view.hash}:${JSON.stringify(view.errors || {})}`;
    if (layer.dataset.key === key && !layer.hidden) return;
    const previous = layer.querySelector(".modal-body");
    const typed = previous && layer.dataset.viewId === view.id ? collectInputs(previous) : null;
    let body = null;
    body = h("div", { className: "modal-body" }, renderBlocks(view.blocks, viewCtx(view, () => body)));
    if (typed) restoreInputs(body, typed);
    const submit = view.submit
      ? h("button", { type: "button", className: "primary", onclick: (event) => submitView(view, body, event.currentTarget) }, plain(view.submit))
      : null;
    const modal = h("div", { className: "modal", role: "dialog", "aria-modal": "true", "aria-label": plain(view.title) },
      h("header", {}, plain(view.title), h("button", { type: "button", "aria-label": "Close", onclick: () => ui("close", { view_id: view.id }) }, "×")),
      body,
      h("footer", {}, h("button", { type: "button", onclick: () => ui("close", { view_id: view.id }) }, plain(view.close) || "Cancel"), submit));
    layer.replaceChildren(modal);
    layer.dataset.key = key;
    layer.dataset.viewId = view.id;
    layer.hidden = false;
  }

  // What the person typed, ticked or picked survives the app's update of the same view.
  function restoreInputs(root, typed) {
    for (const node of root.querySelectorAll("[data-input-key]")) {
      const value = typed[node.dataset.inputKey];
      const type = node.dataset.inputType;
      if (value === undefined || type === "external_select" || type === "multi_external_select") continue;
      if (type === "checkboxes" || type === "radio_buttons") {
        const ticked = [].concat(value);
        for (const box of node.querySelectorAll("input")) box.checked = ticked.includes(box.value);
      } else if (node.multiple) {
        for (const option of node.options) option.selected = [].concat(value).includes(option.value);
      } else if (typeof value !== "object" && "value" in node) {
        node.value = value;
      }
    }
  }

  async function submitView(view, body, button) {
    const inputs = collectInputs(body);
    let missing = false;
    for (const block of view.blocks.filter((b) => b.type === "input" && !b.optional)) {
      const filled = Object.keys(inputs).some((key) => key.startsWith(`${block.block_id}/`));
      const slot = body.querySelector(`[data-block-id="${CSS.escape(block.block_id)}"] .input-error`);
      if (slot) slot.textContent = filled ? "" : "Please complete this required field.";
      missing = missing || !filled;
    }
    if (missing) return;
    button.disabled = true;
    try { await ui("submit", { view_id: view.id, inputs }); } finally { button.disabled = false; }
  }

  // ---- composer

  async function send(text, threadTs) {
    const trimmed = text.trim();
    if (!trimmed) return;
    if (trimmed.startsWith("/") && !threadTs) await ui("command", { channel: page.channel, text: trimmed });
    else await ui("message", { channel: page.channel, text: trimmed, thread_ts: threadTs });
  }

  function wireComposer(formId, textId, threadTs) {
    const form = $(formId);
    const text = $(textId);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const value = text.value;
      text.value = "";
      await send(value, threadTs());
    });
    text.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && !event.shiftKey) { event.preventDefault(); form.requestSubmit(); }
    });
  }

  // 📎: a person shares an image or PDF in the channel, with what they typed as its message (Slack's uploader).
  function wireUpload() {
    const input = $("composer-file");
    input.addEventListener("change", async () => {
      const file = input.files[0];
      input.value = "";
      if (!file) return;
      const bytes = new Uint8Array(await file.arrayBuffer());
      let binary = "";
      for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      const text = $("composer-text").value.trim();
      const result = await ui("upload", { channel: page.channel, name: file.name, content_base64: btoa(binary), text });
      if (result.ok) $("composer-text").value = "";
    });
  }

  function readHash() {
    const params = new URLSearchParams(window.location.hash.slice(1));
    if (params.get("channel")) page.channel = params.get("channel");
    if (params.get("ts")) page.highlight = params.get("ts");
  }

  function start() {
    readHash();
    wireComposer("composer", "composer-text", () => null);
    wireUpload();
    wireComposer("thread-composer", "thread-text", () => (page.thread ? page.thread.ts : null));
    $("thread-close").addEventListener("click", () => { page.thread = null; render(); });
    $("user-switch").addEventListener("change", (event) => {
      page.me = event.target.value;
      localStorage.setItem("emulator.user", page.me);
      $("modal-layer").dataset.key = "";
      refreshNow();
    });
    $("locale-switch").addEventListener("change", (event) => ui("locale", { locale: event.target.value }));
    $("team-locale-switch").addEventListener("change", (event) => ui("team_locale", { locale: event.target.value }));
    window.addEventListener("hashchange", () => { readHash(); render(); });
    pollLoop();
  }

  start();
})();
