"""A Mind's words in German, in the "ich" voice (see ``phrases`` for what each table holds).

The field a Mind names ("Schuhe", "Kleidung") only follows "für", "um" or "über", where every field reads the
same (accusative), and after "Als Barista in Berlin" the verb comes first (``after_speaker``)."""

from __future__ import annotations

from minds_sandbox.phrases import Phrases

PHRASES = Phrases(
    lang="de",
    fields={
        "": "Produkte wie dieses",
        "footwear": "Schuhe",
        "apparel": "Kleidung",
        "skincare": "Hautpflege",
        "software": "Software",
        "food": "Essen und Trinken",
    },
    about_me={
        "priceSensitivity": "ich vergleiche Preise, bevor ich etwas kaufe",
        "sustainabilityFocus": "ich schaue genau hin, woraus die Dinge gemacht sind",
        "brandLoyalty": "ich bleibe gern bei Marken, die ich kenne",
        "noveltySeeking": "ich gehöre meist zu den Ersten, die etwas Neues ausprobieren",
        "skepticism": "ich habe schon viele Versprechen erlebt, die nicht gehalten wurden",
    },
    after_speaker={
        "priceSensitivity": "vergleiche ich Preise, bevor ich etwas kaufe",
        "sustainabilityFocus": "schaue ich genau hin, woraus die Dinge gemacht sind",
        "brandLoyalty": "bleibe ich gern bei Marken, die ich kenne",
        "noveltySeeking": "gehöre ich meist zu den Ersten, die etwas Neues ausprobieren",
        "skepticism": "habe ich schon viele Versprechen erlebt, die nicht gehalten wurden",
    },
    reasons={
        "use": {
            "priceSensitivity": ("Für den Alltag", "Zuerst im Alltag, statt dass ich wieder das Übliche kaufe"),
            "sustainabilityFocus": (
                "Ersatz für weniger Nachhaltiges",
                "Zuerst als Ersatz für etwas, das ich habe und das weniger nachhaltig ist",
            ),
            "brandLoyalty": (
                "Neben meiner gewohnten Marke",
                "Zuerst für das, wofür ich sonst meine gewohnte Marke nehme, um zu sehen, ob es mithält",
            ),
            "noveltySeeking": ("Sofort ausprobieren", "Sofort, und zwar dort, wo es anderen auffällt"),
            "skepticism": (
                "Erst ein kurzer Test",
                "Zuerst für einen kurzen Test, um zu sehen, ob es hält, was es verspricht",
            ),
        },
        "switch": {
            "priceSensitivity": (
                "Ein besserer Preis",
                "Ein deutlich besserer Preis: dieselbe Qualität für etwa ein Fünftel weniger, und ich würde wechseln",
            ),
            "brandLoyalty": (
                "Nur eine schlechte Erfahrung",
                "Nur eine Enttäuschung: Solange die Qualität meiner jetzigen Marke nicht nachlässt, bleibe ich dabei",
            ),
            "noveltySeeking": (
                "Etwas wirklich Neues",
                "Etwas wirklich Neues: eine Technik oder ein Design, das sonst noch niemand hat",
            ),
            "sustainabilityFocus": (
                "Nachweisbare Nachhaltigkeit",
                "Eine Marke, die nachweisen kann, dass sie nachhaltiger ist, mit recycelten Materialien und einem "
                "Rücknahmeangebot, würde mich überzeugen",
            ),
            "skepticism": (
                "Unabhängige Belege",
                "Unabhängige Tests, die zeigen, dass es wirklich besser ist; Werbung allein würde mich nicht umstimmen",
            ),
        },
        "credibility": {
            "skepticism": (
                "Nur unabhängig geprüft",
                "Nur wenn eine unabhängige Stelle die Zahlen prüft; ein Siegel, das sich die Firma selbst ausgedacht "
                "hat, würde mich der Aussage eher weniger glauben lassen",
            ),
            "sustainabilityFocus": (
                "Eine Prüfstelle, die ich kenne",
                "Es hilft, wenn das Siegel von einer Prüfstelle kommt, die ich kenne, denn dann ist die Aussage mehr "
                "als Marketing",
            ),
            "brandLoyalty": (
                "Die Marke zählt mehr",
                "Ich vertraue der Firma hinter dem Produkt mehr als jedem Siegel darauf",
            ),
            "priceSensitivity": (
                "Nicht, wenn es mehr kostet",
                "Es würde helfen, aber nicht, wenn das Siegel zur Ausrede für einen höheren Preis wird",
            ),
            "noveltySeeking": (
                "Eine klare Erklärung",
                "Es hilft, wenn auf dem Siegel in einem Satz steht, was wer geprüft hat",
            ),
        },
        "why": {
            "priceSensitivity": (
                "Preis und Leistung",
                "Vor allem der Preis: Wenn es um {field} geht, schaue ich, was ich für mein Geld bekomme, und das "
                "muss sich fair anfühlen",
            ),
            "sustainabilityFocus": (
                "Nachhaltigkeit",
                "Vor allem, wie es hergestellt wird: Mir ist wichtig, ob für {field} recycelte oder verantwortungsvoll "
                "hergestellte Materialien verwendet werden",
            ),
            "brandLoyalty": (
                "Vertrauen in die Marke",
                "Vor allem Vertrauen: Ich bleibe bei den Marken, die mich nicht enttäuscht haben",
            ),
            "noveltySeeking": (
                "Neugier",
                "Vor allem Neugier: Ich probiere Neuheiten rund um {field} gern aus, bevor alle anderen sie haben",
            ),
            "skepticism": (
                "Belege, dass es funktioniert",
                "Vor allem, ob es funktioniert: Aussagen über {field} glaube ich erst, wenn ich Belege gesehen habe",
            ),
        },
        "barrier": {
            "priceSensitivity": ("Der Preis", "ein Preis, der sich für das Gebotene nicht fair anfühlt"),
            "sustainabilityFocus": ("Unklare Herkunft", "die Unklarheit darüber, wie und wo es hergestellt wird"),
            "brandLoyalty": ("Eine unbekannte Marke", "eine Marke, von der ich noch nie gehört habe"),
            "noveltySeeking": ("Mehr vom Gleichen", "das Gefühl, dass es nur mehr vom Gleichen ist"),
            "skepticism": ("Keine Belege", "ein Versprechen ohne Beleg, dass es wirklich funktioniert"),
        },
        "improve": {
            "priceSensitivity": (
                "Ein niedrigerer Preis",
                "Ich würde den Preis senken oder eine einfachere, günstigere Version anbieten",
            ),
            "sustainabilityFocus": (
                "Umweltfreundlichere Materialien",
                "Ich würde mehr recycelte Materialien verwenden und offen sagen, wie es hergestellt wird",
            ),
            "brandLoyalty": (
                "Gleichbleibende Qualität",
                "Ich würde vor allem die Qualität gleich gut halten; deshalb komme ich immer wieder",
            ),
            "noveltySeeking": (
                "Ein frisches Design",
                "Ich würde etwas hinzufügen, das ich anderswo noch nicht gesehen habe, ein Design oder eine Funktion",
            ),
            "skepticism": ("Ehrliche Aussagen", "Ich würde jede Aussage mit einem unabhängigen Test belegen"),
        },
        "likes": {
            "priceSensitivity": (
                "Ein fairer Preis",
                "Am besten gefällt mir, dass der Preis für das Gebotene fair wirkt",
            ),
            "sustainabilityFocus": (
                "Die Materialien",
                "Am besten gefällt mir, woraus es gemacht ist, wenn der recycelte Anteil echt ist",
            ),
            "brandLoyalty": ("Die Marke dahinter", "Am besten gefällt mir die Marke dahinter, die ich schon kenne"),
            "noveltySeeking": (
                "Wirkt neu",
                "Am besten gefällt mir, dass es neu wirkt und anders ist als das, was ich habe",
            ),
            "skepticism": (
                "Nichts, solange es unbewiesen ist",
                "Ehrlich gesagt noch nichts; ich müsste erst sehen, dass es hält, was es verspricht",
            ),
        },
        "reaction": {
            "priceSensitivity": ("Preis-Leistung", "solange der Preis fair ist"),
            "sustainabilityFocus": ("Besser für den Planeten", "wenn es wirklich besser für den Planeten ist"),
            "brandLoyalty": ("Wer dahintersteht", "weil mir wichtig ist, welche Marke dahintersteht"),
            "noveltySeeking": ("Wirkt neu", "weil ich gern früh bei neuen Dingen dabei bin"),
            "skepticism": ("Braucht Belege", "aber ich würde erst Belege sehen wollen, dass es funktioniert"),
        },
        "opinion": {
            "priceSensitivity": (
                "Zuerst der Preis",
                "Für mich kommt es auf den Preis an und darauf, ob es das wert ist",
            ),
            "sustainabilityFocus": (
                "Wie es hergestellt wird",
                "Für mich kommt es darauf an, wie verantwortungsvoll es hergestellt wird",
            ),
            "brandLoyalty": (
                "Vertraute Marken",
                "Für mich kommt es darauf an, ob ich die Marke kenne und ihr vertraue",
            ),
            "noveltySeeking": ("Etwas Neues", "Für mich kommt es darauf an, ob es etwas Neues bietet"),
            "skepticism": ("Belege", "Für mich kommt es auf Belege an, dass es hält, was es verspricht"),
        },
    },
    usage=(
        ("Regelmäßig", "Für {field} gebe ich mehrmals im Jahr Geld aus, und ich behalte im Blick, was neu herauskommt"),
        ("Ab und zu", "Für {field} gebe ich etwa einmal im Jahr Geld aus, wenn das Alte verbraucht ist"),
        ("Selten", "Für {field} gebe ich selten Geld aus; ich nutze, was ich habe, bis es kaputt ist"),
    ),
    brand_habit={
        "priceSensitivity": "ich kaufe die, die gerade im Angebot ist",
        "sustainabilityFocus": "ich nehme die, die offener mit ihren Materialien umgeht",
        "brandLoyalty": "denen bin ich seit Jahren treu",
        "noveltySeeking": "aber ich probiere auch immer wieder kleinere Marken aus",
        "skepticism": "weil Tests, denen ich vertraue, sie immer wieder gut bewerten",
    },
    credible={
        "skepticism": (
            "ein unabhängiges Siegel kann ich überprüfen; was eine Marke über sich selbst behauptet, nehme ich mit "
            "Vorsicht",
            "ein Siegel allein überzeugt mich nicht; ich habe zu viele solche Aussagen scheitern sehen",
        ),
        "sustainabilityFocus": (
            "ein Siegel von einer Prüfstelle, die ich kenne, heißt, dass jemand außerhalb der Firma geprüft hat, wie "
            "es hergestellt wird",
            "ich würde trotzdem sehen wollen, wie es hergestellt wird; das sagt mir ein Siegel allein nicht",
        ),
        "brandLoyalty": (
            "ein Siegel bei einer Marke, der ich ohnehin vertraue, macht die Aussage glaubwürdiger",
            "ich vertraue der Firma hinter dem Produkt mehr als jedem Siegel auf der Verpackung",
        ),
        "priceSensitivity": (
            "ein geprüftes Siegel macht die Aussage etwas wert, solange es den Preis nicht nach oben treibt",
            "ein Siegel sieht für mich vor allem nach einem Grund aus, mehr zu verlangen; glaubwürdiger wird die "
            "Aussage dadurch nicht",
        ),
        "noveltySeeking": (
            "ein Siegel, das in einem Satz sagt, was wer geprüft hat, macht die Aussage konkret",
            "ein Siegel ist für mich nur ein weiteres Logo; ich müsste wissen, was genau es prüft, bevor ich die "
            "Aussage glaube",
        ),
    },
    credible_too={
        "skepticism": (
            "wenn jemand Unabhängiges es geprüft hat, ist die Aussage mehr als Eigenwerbung der Marke",
            "solche Siegel kann man leicht kaufen; hinter der Aussage müssten echte Zahlen stehen",
        ),
        "sustainabilityFocus": (
            "ein Siegel von Dritten zeigt mir, dass sich jemand die Aussage angesehen hat, der weiß, wie so etwas "
            "hergestellt wird",
            "ein Siegel zeigt mir nicht, woher die Materialien kommen, also bleibt die Aussage vage",
        ),
        "brandLoyalty": (
            "bei einer Marke, die ich kenne, würde ein geprüftes Siegel die Sache klären; die Aussage wäre leicht zu "
            "glauben",
            "ob ich die Aussage glaube, hängt von der Marke ab, nicht von einem Siegel",
        ),
        "priceSensitivity": (
            "ein Siegel, das jemand anderes geprüft hat, macht die Aussage glaubwürdig, wenn der Preis gleich bleibt",
            "ich würde vermuten, dass das Siegel einen höheren Preis rechtfertigen soll, also gewinnt die Aussage kaum",
        ),
        "noveltySeeking": (
            "ein Siegel von unabhängiger Seite lässt die Aussage echt wirken, und ich würde es nachschlagen",
            "noch ein Siegel auf der Verpackung macht die Aussage nicht glaubwürdig; ich würde wissen wollen, was "
            "gemessen wurde",
        ),
    },
    says={
        "believable": (
            "das klingt nach etwas, das wirklich funktionieren würde",
            "manches klingt plausibel, manches würde ich erst sehen wollen",
            "das klingt zu schön, um wahr zu sein",
        ),
        "recommend": (
            "ich würde meinen Freunden davon erzählen",
            "ich würde es vielleicht erwähnen, aber niemanden zum Kauf drängen",
            "ich würde es keinem Freund mit meinem Namen empfehlen",
        ),
        "bought": (
            "ich gebe regelmäßig Geld für {field} aus und weiß, was es gibt",
            "ab und zu, wenn ich etwas Neues brauche",
            "ich habe in letzter Zeit nichts in der Art gekauft",
        ),
        "heard": (
            "ich bin schon einmal darauf gestoßen und weiß ungefähr, was es ist",
            "der Name kommt mir bekannt vor, aber viel könnte ich dazu nicht sagen",
            "davon höre ich heute zum ersten Mal",
        ),
        "frequency": (
            "für {field} gebe ich einiges aus, und ich nutze das viel",
            "für {field} gebe ich nur aus, was ich wirklich brauche",
            "für {field} gebe ich nicht viel aus",
        ),
        "agree": ("das entspricht genau meiner Sicht", "teils sehe ich das so, teils nicht", "so sehe ich das nicht"),
        "satisfied": (
            "es tut, was ich brauche, und ich hatte keinen Grund zur Klage",
            "es ist in Ordnung, aber nichts Besonderes",
            "es hat mich mehr als einmal enttäuscht",
        ),
        "different": (
            "es wirkt wie etwas, das ich so noch nicht gesehen habe",
            "es ist etwas anders, aber nicht viel",
            "es sieht ziemlich so aus wie das, was ich schon habe",
        ),
        "intent": (
            "ich würde es kaufen, wenn ich darauf stoße",
            "gut möglich, aber ich würde es mir erst selbst ansehen wollen",
            "ich sehe mich das nicht kaufen",
        ),
        "appeal": (
            "es spricht mich an",
            "es ist in Ordnung, aber es begeistert mich nicht",
            "es sagt mir nicht viel",
        ),
        "opinion": ("ich habe ein gutes Gefühl dabei", "ich bin da zwiegespalten", "ich bin nicht begeistert davon"),
    },
    draws={
        "priceSensitivity": "der Preis wirkt für das Gebotene fair",
        "sustainabilityFocus": "mir gefällt, woraus es gemacht ist",
        "brandLoyalty": "der Marke dahinter würde ich vertrauen",
        "noveltySeeking": "es wirkt neu, und ich bin gern früh dabei",
        "skepticism": "was es verspricht, klingt nach etwas, das ich überprüfen könnte",
    },
    would_decide={
        "priceSensitivity": "den Ausschlag würde der Preis geben",
        "sustainabilityFocus": "den Ausschlag würde geben, wie es hergestellt wird",
        "brandLoyalty": "den Ausschlag würde geben, wer es herstellt",
        "noveltySeeking": "den Ausschlag würde geben, ob es wirklich neu ist",
        "skepticism": "den Ausschlag würde ein Test geben, dem ich vertraue",
    },
    puts_off={
        "priceSensitivity": "ich behalte mein Geld lieber für etwas, von dem ich weiß, dass es sich lohnt",
        "sustainabilityFocus": "ich weiß zu wenig darüber, wie es hergestellt wird",
        "brandLoyalty": "ich bleibe lieber bei den Marken, die ich kenne",
        "noveltySeeking": "es wirkt wie mehr vom Gleichen",
        "skepticism": "ich habe keinen Beleg gesehen, dass es hält, was es verspricht",
    },
    line={
        "who": "{said} Als {role} in {city} {me}.",
        "who_alone": "Als {role} in {city}",
        "intent_yes": "Ja, würde ich.",
        "intent_maybe": "Vielleicht.",
        "intent_no": "Eher nicht.",
        "intent": "{lead} {reason}.",
        "switch_easy": "Ich wechsle ziemlich leicht. ",
        "switch_hard": "Dafür bräuchte es einiges. ",
        "switch": "{lead}{reason}.",
        "credibility_yes": "Ja, das würde es.",
        "credibility_some": "Ein wenig.",
        "credibility_no": "Für sich allein nicht.",
        "credibility": "{lead} {reason}.",
        "barrier_little": "Viel würde mich nicht abhalten. Höchstens {reason}.",
        "barrier": "Abhalten würde mich vor allem {reason}.",
        "reaction_yes": "Das gefällt mir richtig gut",
        "reaction_open": "Ich bin offen dafür",
        "reaction_no": "Ich bin nicht überzeugt",
        "reaction": "{opener}, {reason}.",
        "plain": "{reason}.",
        "price_unknown": "Ich müsste es erst sehen, bevor ich einen Preis nennen könnte.",
        "price_unknown_theme": "Muss es erst sehen",
        "price_paid": "Zuletzt habe ich etwa {paid} für {field} bezahlt, und das fand ich angemessen.",
        "price_paid_compared": "Zuletzt habe ich etwa {paid} für {field} bezahlt; {asked} {verdict}.",
        "price_extra": "{extra} mehr als die üblichen {usual}",
        "price_tested": "Ich würde bis etwa {mine} zahlen; {asked} {verdict}.",
        "verdict_fine": "wären für mich in Ordnung",
        "verdict_more": "sind mehr, als ich ausgeben würde",
        "theme_asked_or_more": "Der genannte Preis oder mehr",
        "theme_less_than_asked": "Weniger als der genannte Preis",
        "because_compare": "weil ich immer Preise vergleiche",
        "because_use": "weil ich es viel nutzen würde",
        "price_fair": "Etwa {mine} fände ich fair, {reason}.",
        "band_under": "Unter {low}",
        "band_over": "Über {high}",
        "band": "{low} bis {high}",
        "had_brand": "etwas von {brand}",
        "had_unknown": "etwas von einer Marke, die ich schon kannte",
        "had_better": "Ich hatte {used}; das hier klingt für mich besser.",
        "had_better_theme": "Klingt besser als das Bisherige",
        "had_same": "Ich hatte {used}; das hier klingt ungefähr gleich.",
        "had_same_theme": "Ungefähr gleich",
        "had_rather": "Ich hatte {used} und würde lieber dabei bleiben.",
        "had_rather_theme": "Bleibt lieber beim Bisherigen",
        "brands_none": "Ich lege mich nicht auf bestimmte Marken fest; ich kaufe, was seinen Zweck erfüllt.",
        "brands_none_theme": "Keine bestimmte Marke",
        "brands_none_bought": "Ich kaufe zurzeit keine {field}, also auch keine bestimmte Marke.",
        "brands_none_bought_theme": "Kauft keine",
        "brands": "Meistens {first} und {second}; {habit}.",
        "unfit_price": "Ich weiß nicht wirklich, was man für {field} bezahlt; ich würde auf etwa {guess} tippen.",
        "unfit_brands": "Bei Marken für {field} kenne ich mich nicht aus; ich nutze einfach, was ich habe.",
        "unfit": "Ehrlich gesagt weiß ich über {field} nicht viel, deshalb habe ich keine feste Meinung.",
        "unfit_who": "{view} Ich bin {role} in {city}.",
        "unfit_who_spends": "{view} Als {role} in {city} gebe ich mein Geld für {own} aus, nicht für {field}.",
        "unfit_theme": "Nicht mein Gebiet",
        "chat_unknown": "Als {who} müsste ich mehr wissen, bevor ich darauf antworte.",
        "closed_unfit": "Über {field} weiß ich nicht viel, deshalb habe ich keine feste Meinung.",
        "closed_none": "Nichts davon ist mir besonders wichtig.",
        "closed_several": "Darauf achte ich zuerst, denn {me}.",
        "closed_one": "Darauf achte ich zuerst, denn {me}.",
        "closed_source": "dort fallen mir Neuheiten rund um {field} am ehesten auf, denn {me}",
        "closed_neither": "keine Option sticht für mich heraus; wenn es um {field} geht, entscheiden andere Dinge",
        "closed_fits": "das passt besser zu mir, denn {me}",
        "closed_unsure": "es kommt darauf an, wer hinter dem Siegel steht; manchen würde ich glauben, manchen nicht",
        "closed_habit": "{says}; {me}",
        "closed_why": "{says}; {why}",
        "lead_yes": "Ja — ",
        "lead_no": "Nein — ",
        "lead_maybe": "Vielleicht — ",
        "end": ".",
        "pay_band": "Ich würde etwa {mine} für {field} zahlen",
        "pay_extra_fine": "Ich würde etwa {mine} für {field} zahlen, also sind {extra} mehr für mich in Ordnung",
        "pay_extra_over": "{extra} mehr bringen mich etwas über die {mine}, die ich zahlen würde, aber ich würde es "
        "zahlen",
        "pay_extra_not_worth": "Ich würde etwa {mine} für {field} zahlen, aber {extra} mehr ist es mir nicht wert",
        "pay_extra_too_much": "Ich würde etwa {mine} für {field} zahlen; {extra} mehr sind zu viel",
        "pay_extra_stretch": "Ich würde etwa {mine} für {field} zahlen, also wären {extra} mehr schon grenzwertig",
        "pay_happily": "Ich würde etwa {mine} zahlen, also zahle ich {asked} für {field} gern",
        "pay_over_but": "{asked} für {field} sind mehr als die {mine}, die ich sonst zahlen würde, aber ich würde "
        "es zahlen",
        "pay_never": "Ich würde etwa {mine} zahlen; {asked} für {field} würde ich nie zahlen",
        "pay_could_but": "Ich würde etwa {mine} zahlen; {asked} für {field} könnte ich also zahlen, aber ich "
        "finde, das ist es nicht wert",
        "pay_stretch": "Ich würde etwa {mine} zahlen, also wären {asked} für {field} schon grenzwertig",
        "pay_within": "Ich würde etwa {mine} zahlen, also liegen {asked} für {field} im Rahmen, aber ich würde es "
        "mir gut überlegen",
        "theme_count": "{theme} ({count} von {total})",
        "theme_other": "Sonstiges",
        "no_answers": "keine Antworten",
        "summary_most": "Die meisten wählten {option} ({pct} %, n={n}).",
        "summary_mean": "Mittelwert {mean} auf {low}–{high} (n={n}).",
        "summary_theme": "Häufigstes Thema: {theme} (n={n}).",
        "summary_none": "Keine Antworten erfasst.",
        "mean": "Mittelwert {mean}",
    },
)
