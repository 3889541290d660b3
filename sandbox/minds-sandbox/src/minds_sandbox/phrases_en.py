"""A Mind's words in English (see ``phrases`` for what each table holds)."""

from __future__ import annotations

from minds_sandbox.phrases import Phrases

_ABOUT_ME = {
    "priceSensitivity": "I compare prices before I buy anything",
    "sustainabilityFocus": "I look closely at what things are made of",
    "brandLoyalty": "I tend to stay with names I know",
    "noveltySeeking": "I am usually among the first to try something new",
    "skepticism": "I have seen plenty of promises that did not hold up",
}

PHRASES = Phrases(
    lang="en",
    fields={
        "": "products like this",
        "footwear": "shoes",
        "apparel": "clothes",
        "skincare": "skincare",
        "software": "software",
        "food": "food and drink",
    },
    about_me=_ABOUT_ME,
    after_speaker=_ABOUT_ME,
    reasons={
        "use": {
            "priceSensitivity": (
                "Everyday use",
                "First for everyday use, instead of the {field} I would otherwise buy",
            ),
            "sustainabilityFocus": (
                "Replacing something less sustainable",
                "First to replace something I own that is less sustainable",
            ),
            "brandLoyalty": (
                "Alongside my usual brand",
                "First for what I normally use my usual brand for, to see if it keeps up",
            ),
            "noveltySeeking": ("Trying it out straight away", "Straight away, somewhere people would notice it"),
            "skepticism": ("A short trial first", "First for a short trial, to see whether it does what it says"),
        },
        "switch": {
            "priceSensitivity": (
                "A better price",
                "A clearly better price would: the same quality for about a fifth less and I would switch",
            ),
            "brandLoyalty": (
                "Only a bad experience",
                "Only being let down: unless the quality of my current brand dropped, I would stay",
            ),
            "noveltySeeking": (
                "Something genuinely new",
                "Something genuinely new would: a technology or design nobody else has yet",
            ),
            "sustainabilityFocus": (
                "Proven sustainability",
                "A brand that can prove it is more sustainable, with "
                "recycled materials and a take-back offer, would win me over",
            ),
            "skepticism": (
                "Independent proof",
                "Independent tests showing it really performs better would; advertising alone would not move me",
            ),
        },
        "credibility": {
            "skepticism": (
                "Only if independently verified",
                "Only if an independent body checks the numbers; a label the company made up itself would make me "
                "trust the claim less",
            ),
            "sustainabilityFocus": (
                "A certifier I recognise",
                "It helps when the label comes from a certifier I recognise, because then the claim is more than "
                "marketing",
            ),
            "brandLoyalty": (
                "The brand matters more",
                "I trust the company behind the product more than any label on it",
            ),
            "priceSensitivity": (
                "Not if it costs more",
                "It would help, but not if the label becomes an excuse to charge more",
            ),
            "noveltySeeking": (
                "A clear explanation",
                "It helps when the label says in one line what was checked and by whom",
            ),
        },
        "why": {
            "priceSensitivity": (
                "Price and value",
                "Mostly the price: with {field} I look at what I get for the money, and it has to feel fair",
            ),
            "sustainabilityFocus": (
                "Sustainability",
                "Mostly how it is made: I care whether {field} use recycled or responsibly made materials",
            ),
            "brandLoyalty": ("Brand trust", "Mostly trust: I stay with the brands that have not let me down"),
            "noveltySeeking": ("Novelty", "Mostly curiosity: I like trying new {field} before everyone else has them"),
            "skepticism": (
                "Proof it works",
                "Mostly whether it works: I believe claims about {field} only once I have seen proof",
            ),
        },
        "barrier": {
            "priceSensitivity": ("The price", "a price that does not feel fair for what it is"),
            "sustainabilityFocus": ("Unclear sourcing", "not knowing how and where it is made"),
            "brandLoyalty": ("An unknown brand", "a brand I have never heard of"),
            "noveltySeeking": ("More of the same", "it feeling like more of the same"),
            "skepticism": ("No proof", "promises without proof that it actually works"),
        },
        "improve": {
            "priceSensitivity": ("A lower price", "Bring the price down, or offer a simpler, cheaper version"),
            "sustainabilityFocus": ("Greener materials", "Use more recycled materials and say plainly how it is made"),
            "brandLoyalty": ("Consistent quality", "Keep the quality consistent; that is what keeps me coming back"),
            "noveltySeeking": ("A fresh design", "Add something I have not seen elsewhere, a design or a feature"),
            "skepticism": ("Honest claims", "Back every claim with an independent test"),
        },
        "likes": {
            "priceSensitivity": ("A fair price", "What I like most is that it seems fairly priced for what it is"),
            "sustainabilityFocus": (
                "The materials",
                "What I like most is what it is made of, if the recycled part is real",
            ),
            "brandLoyalty": ("The brand behind it", "What I like most is the brand behind it, which I already know"),
            "noveltySeeking": ("Feels new", "What I like most is that it feels new and different from what I have"),
            "skepticism": ("Nothing until proven", "Nothing yet, honestly; I would need to see it hold up first"),
        },
        "reaction": {
            "priceSensitivity": ("Value for money", "as long as the price feels fair"),
            "sustainabilityFocus": ("Better for the planet", "if it is genuinely better for the planet"),
            "brandLoyalty": ("Who is behind it", "because it matters to me which brand stands behind it"),
            "noveltySeeking": ("Feels new", "because I like being early to new things"),
            "skepticism": ("Needs proof", "but I would want proof that it works first"),
        },
        "opinion": {
            "priceSensitivity": ("Price first", "For me it comes down to the price and whether it is worth it"),
            "sustainabilityFocus": ("How it is made", "For me it comes down to how responsibly it is made"),
            "brandLoyalty": ("Trusted names", "For me it comes down to whether I know and trust the brand"),
            "noveltySeeking": ("Something new", "For me it comes down to whether it brings something new"),
            "skepticism": ("Evidence", "For me it comes down to evidence that it does what it says"),
        },
    },
    usage=(
        ("Regularly", "I buy new {field} several times a year and keep an eye on what comes out"),
        ("Now and then", "I buy new {field} about once a year, when the old ones are worn out"),
        ("Rarely", "I rarely buy {field}; I use what I have until it falls apart"),
    ),
    brand_habit={
        "priceSensitivity": "I buy whichever of them is on sale",
        "sustainabilityFocus": "I pick the one that is more open about its materials",
        "brandLoyalty": "I have stayed with them for years",
        "noveltySeeking": "though I keep trying smaller labels too",
        "skepticism": "because reviews I trust keep rating them well",
    },
    credible={
        "skepticism": (
            "an independent label is something I can check; a claim the brand makes about itself I take with a "
            "pinch of salt",
            "a label alone doesn't convince me; I have seen too many claims like that fall apart",
        ),
        "sustainabilityFocus": (
            "a label from a certifier I recognise means someone outside the company has looked at how it is made",
            "I'd still want to see how it is made; a label alone doesn't tell me that",
        ),
        "brandLoyalty": (
            "a label on top of a brand I already trust makes the claim easier to believe",
            "I trust the company behind the product more than any label it puts on the box",
        ),
        "priceSensitivity": (
            "a checked label makes the claim worth something, as long as it doesn't push the price up",
            "a label mostly looks like a reason to charge more; it doesn't make the claim more believable to me",
        ),
        "noveltySeeking": (
            "a label that says in one line what was checked and by whom makes the claim concrete",
            "a label is just one more logo to me; I'd need to know what exactly it checks before I believe the claim",
        ),
    },
    credible_too={
        "skepticism": (
            "if someone independent checked it, the claim is more than the brand talking about itself",
            "labels like that are easy to buy; the claim would need real numbers behind it",
        ),
        "sustainabilityFocus": (
            "a third-party label tells me the claim was looked at by someone who knows how things are made",
            "a label doesn't show me where the materials come from, so the claim stays vague",
        ),
        "brandLoyalty": (
            "from a brand I know, a checked label would settle it; the claim would be easy to believe",
            "whether I believe the claim depends on the brand, not on a label",
        ),
        "priceSensitivity": (
            "a label somebody else checked makes the claim believable, if the price stays the same",
            "I'd suspect the label is there to justify a higher price, so the claim doesn't gain much",
        ),
        "noveltySeeking": (
            "a label from someone independent makes the claim feel real, and I'd look it up",
            "one more label on the box won't make the claim believable; I'd want to know what was measured",
        ),
    },
    says={
        "believable": (
            "it sounds like something that would really work",
            "some of it sounds plausible, some of it I would want to see first",
            "it sounds too good to be true",
        ),
        "recommend": (
            "I'd tell my friends about {field} like this",
            "I might mention it, but I wouldn't push anyone to buy it",
            "I wouldn't put my name behind it to a friend",
        ),
        "bought": (
            "I buy {field} regularly, so I know what is out there",
            "now and then, when I need new {field}",
            "I haven't bought {field} like this recently",
        ),
        "heard": (
            "I have come across it before and know roughly what it is",
            "the name rings a bell, but I couldn't say much about it",
            "this is the first I have heard of it",
        ),
        "frequency": (
            "{field} are something I buy and use a lot",
            "I buy {field} when I need them, not more than that",
            "{field} are not something I spend much on",
        ),
        "agree": ("that matches how I see it", "I partly see it that way, partly not", "that is not how I see it"),
        "satisfied": (
            "it does what I need, and I have had no reason to complain",
            "it is fine, though nothing special",
            "it has let me down more than once",
        ),
        "different": (
            "it feels like something I haven't seen before",
            "it is a bit different, but not by much",
            "it looks much like what I already have",
        ),
        "intent": (
            "I'd buy it if I came across it",
            "I might, but I'd want to see it in person first",
            "I don't see myself buying it",
        ),
        "appeal": ("it speaks to me", "it is okay, but it doesn't excite me", "it doesn't do much for me"),
        "opinion": ("I feel good about it", "I have mixed feelings about it", "I'm not keen on it"),
    },
    draws={
        "priceSensitivity": "it seems fairly priced for what it is",
        "sustainabilityFocus": "I like what it is made of",
        "brandLoyalty": "the brand behind it is one I would trust",
        "noveltySeeking": "it feels new, and I like being early",
        "skepticism": "what it promises sounds like something I could check",
    },
    would_decide={
        "priceSensitivity": "the price would decide it",
        "sustainabilityFocus": "how it is made would decide it",
        "brandLoyalty": "who makes it would decide it",
        "noveltySeeking": "whether it is really new would decide it",
        "skepticism": "a test I trust would decide it",
    },
    puts_off={
        "priceSensitivity": "I'd rather keep my money for something I know is worth it",
        "sustainabilityFocus": "I don't know enough about how it is made",
        "brandLoyalty": "I'd rather stay with the names I know",
        "noveltySeeking": "it feels like more of the same",
        "skepticism": "I haven't seen proof that it does what it says",
    },
    line={
        # who is speaking, after the answer
        "who": "{said} As {role} in {city}, {me}.",
        "who_alone": "As {role} in {city}",
        # open answers
        "intent_yes": "Yes, I would.",
        "intent_maybe": "Maybe.",
        "intent_no": "Probably not.",
        "intent": "{lead} {reason}.",
        "switch_easy": "I switch quite easily. ",
        "switch_hard": "It would take a lot. ",
        "switch": "{lead}{reason}.",
        "credibility_yes": "Yes, it would.",
        "credibility_some": "Somewhat.",
        "credibility_no": "Not by itself.",
        "credibility": "{lead} {reason}.",
        "barrier_little": "Not much would stop me. At most {reason}.",
        "barrier": "The main thing would be {reason}.",
        "reaction_yes": "I really like this",
        "reaction_open": "I'm open to it",
        "reaction_no": "I'm not convinced",
        "reaction": "{opener}, {reason}.",
        "plain": "{reason}.",
        "price_unknown": "I would need to see it before I could name a price.",
        "price_unknown_theme": "Needs to see it first",
        "price_paid": "I paid about {paid} for my last {field}, which felt about right.",
        "price_paid_compared": "I paid about {paid} for my last {field}; {asked} {verdict}.",
        "price_extra": "{extra} more than the usual {usual}",
        "price_tested": "I would pay up to about {mine}; {asked} {verdict}.",
        "verdict_fine": "would be fine for me",
        "verdict_more": "is more than I would spend",
        "theme_asked_or_more": "The asked price or more",
        "theme_less_than_asked": "Less than the asked price",
        "because_compare": "because I always compare prices",
        "because_use": "because I would use it a lot",
        "price_fair": "About {mine} would feel fair to me, {reason}.",
        "band_under": "Under {low}",
        "band_over": "Over {high}",
        "band": "{low} to {high}",
        "had_brand": "{brand} {field}",
        "had_unknown": "something from a brand I already knew",
        "had_better": "I had {used}; this sounds better to me.",
        "had_better_theme": "Sounds better than what they had",
        "had_same": "I had {used}; this sounds about the same.",
        "had_same_theme": "About the same",
        "had_rather": "I had {used}, and I would rather stick with that.",
        "had_rather_theme": "Prefers what they had",
        "brands_none": "I don't stick to particular brands; I buy what does the job.",
        "brands_none_theme": "No particular brand",
        "brands_none_bought": "I don't buy any {field} at the moment, so no brand in particular.",
        "brands_none_bought_theme": "Buys none",
        "brands": "Mostly {first} and {second}; {habit}.",
        "unfit_price": "I don't really know what {field} cost; I would guess around {guess}.",
        "unfit_brands": "I don't follow {field} brands; I just use whatever I have.",
        "unfit": "Honestly, I don't know much about {field}, so I have no strong view.",
        "unfit_who": "{view} As {role} in {city}.",
        "unfit_who_spends": "{view} As {role} in {city}, I spend my money on {own}, not {field}.",
        "unfit_theme": "Not my field",
        "chat_unknown": "As {who}, I would need to know more before I answer that.",
        # reasons that come with a choice
        "closed_unfit": "I don't know much about {field}, so I have no strong view.",
        "closed_none": "None of these matter much to me.",
        "closed_several": "Those are what I look at first, because {me}.",
        "closed_one": "That is what I look at first, because {me}.",
        "closed_source": "that is where I notice new {field} most, because {me}",
        "closed_neither": "neither stands out for me; with {field}, other things decide it",
        "closed_fits": "that one fits me better, because {me}",
        "closed_unsure": "it depends on who is behind the label; some I would believe, some I wouldn't",
        "closed_habit": "{says}; {me}",
        "closed_why": "{says}; {why}",
        "lead_yes": "Yes — ",
        "lead_no": "No — ",
        "lead_maybe": "Maybe — ",
        "end": ".",
        "pay_band": "I would pay about {mine} for {field}",
        "pay_extra_fine": "I would pay about {mine} for {field}, so {extra} more is fine with me",
        "pay_extra_over": "{extra} more takes {field} a little over the {mine} I'd pay, but I'd pay it",
        "pay_extra_not_worth": "I would pay about {mine} for {field}, but {extra} more isn't worth it to me",
        "pay_extra_too_much": "I would pay about {mine} for {field}; {extra} more is too much",
        "pay_extra_stretch": "I would pay about {mine} for {field}, so {extra} more is a stretch",
        "pay_happily": "I would pay about {mine}, so I'd happily pay {asked} for {field}",
        "pay_over_but": "{asked} for {field} is more than the {mine} I'd usually pay, but I'd pay it",
        "pay_never": "I would pay about {mine}; I'd never pay {asked} for {field}",
        "pay_could_but": "I would pay about {mine}, so I could pay {asked} for {field}, but I don't think it is "
        "worth it",
        "pay_stretch": "I would pay about {mine}, so it's a stretch to pay {asked} for {field}",
        "pay_within": "I would pay about {mine}, so {asked} for {field} is within reach, though I'd think twice",
        # results
        "theme_count": "{theme} ({count} of {total})",
        "theme_other": "Other",
        "no_answers": "no answers",
        "summary_most": "Most chose {option} ({pct}%, n={n}).",
        "summary_mean": "Mean {mean} on {low}-{high} (n={n}).",
        "summary_theme": "Leading theme: {theme} (n={n}).",
        "summary_none": "No answers recorded.",
        "mean": "mean {mean}",
    },
)
