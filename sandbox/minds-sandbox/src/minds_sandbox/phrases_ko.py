"""A Mind's words in Korean, in the polite 요 style (see ``phrases`` for what each table holds).

Words that come from data (a field, an occupation, a city, a brand, an amount) are only followed by particles that
read the same after any word (의, 에, 보다) or by a noun (제품, 쪽, 가격), never by 을(를)/은(는)/이(가); a reason
that follows "because" in other languages is its own sentence here."""

from __future__ import annotations

from minds_sandbox.phrases import Phrases

_ABOUT_ME = {
    "priceSensitivity": "저는 뭘 사기 전에 꼭 가격을 비교해요",
    "sustainabilityFocus": "저는 물건이 무엇으로 만들어졌는지 꼼꼼히 봐요",
    "brandLoyalty": "저는 아는 브랜드를 계속 쓰는 편이에요",
    "noveltySeeking": "저는 새로운 걸 보통 제일 먼저 써 보는 편이에요",
    "skepticism": "저는 지켜지지 않은 약속을 많이 봐 왔어요",
}

PHRASES = Phrases(
    lang="ko",
    fields={
        "": "이런 제품",
        "footwear": "신발",
        "apparel": "옷",
        "skincare": "스킨케어 제품",
        "software": "소프트웨어",
        "food": "식음료",
    },
    about_me=_ABOUT_ME,
    after_speaker=_ABOUT_ME,
    reasons={
        "use": {
            "priceSensitivity": ("일상용", "우선 평소에 쓰려고요. 원래 사던 것 대신에요"),
            "sustainabilityFocus": (
                "덜 친환경적인 것 대체",
                "우선 제가 가진 것 중 덜 친환경적인 걸 대신하는 데 쓸 거예요",
            ),
            "brandLoyalty": ("쓰던 브랜드와 비교", "우선 평소 쓰던 브랜드를 쓰는 곳에 써 보고, 따라오는지 볼 거예요"),
            "noveltySeeking": ("바로 써 보기", "바로 써 볼 거예요. 남들 눈에 띄는 곳에서요"),
            "skepticism": ("먼저 짧게 시험", "우선 짧게 시험해 보고, 말한 대로 되는지 볼 거예요"),
        },
        "switch": {
            "priceSensitivity": (
                "더 좋은 가격",
                "확실히 더 좋은 가격이면요. 같은 품질에 20% 정도 저렴하면 바꿀 거예요",
            ),
            "brandLoyalty": (
                "실망했을 때만",
                "실망스러운 일이 있을 때만요. 지금 쓰는 브랜드의 품질이 떨어지지 않는 한 계속 쓸 거예요",
            ),
            "noveltySeeking": (
                "정말 새로운 것",
                "정말 새로운 게 있으면요. 아직 아무도 없는 기술이나 디자인 같은 거요",
            ),
            "sustainabilityFocus": (
                "입증된 지속가능성",
                "재활용 소재를 쓰고 회수 프로그램도 있어서 더 지속가능하다는 걸 증명할 수 있는 브랜드라면 마음이 "
                "갈 거예요",
            ),
            "skepticism": (
                "독립적인 검증",
                "정말 성능이 더 좋다는 독립적인 테스트 결과가 있어야 해요. 광고만으로는 마음이 안 움직여요",
            ),
        },
        "credibility": {
            "skepticism": (
                "독립 검증이 있어야 함",
                "독립 기관이 수치를 확인한 경우에만요. 회사가 직접 만든 라벨이라면 오히려 그 주장을 덜 믿게 될 거예요",
            ),
            "sustainabilityFocus": (
                "아는 인증 기관",
                "제가 아는 인증 기관의 라벨이라면 도움이 돼요. 그러면 그 주장이 단순한 마케팅 이상이니까요",
            ),
            "brandLoyalty": ("브랜드가 더 중요함", "저는 제품에 붙은 어떤 라벨보다 그 뒤에 있는 회사를 더 믿어요"),
            "priceSensitivity": (
                "더 비싸지면 안 됨",
                "도움은 되겠지만, 라벨이 가격을 올리는 핑계가 된다면 아니에요",
            ),
            "noveltySeeking": ("명확한 설명", "라벨에 누가 무엇을 확인했는지 한 줄로 나와 있으면 도움이 돼요"),
        },
        "why": {
            "priceSensitivity": (
                "가격과 가치",
                "무엇보다 가격이에요. {field}의 경우 돈을 낸 만큼 얻는지를 보는데, 공정하다고 느껴져야 해요",
            ),
            "sustainabilityFocus": (
                "지속가능성",
                "무엇보다 어떻게 만들어졌는지예요. {field}에 재활용 소재나 책임 있게 만든 소재를 쓰는지가 중요해요",
            ),
            "brandLoyalty": ("브랜드 신뢰", "무엇보다 신뢰예요. 저를 실망시키지 않은 브랜드를 계속 써요"),
            "noveltySeeking": (
                "새로움",
                "무엇보다 호기심이에요. {field} 쪽에서 새로 나온 건 남들보다 먼저 써 보는 걸 좋아해요",
            ),
            "skepticism": (
                "효과의 증거",
                "무엇보다 효과가 있는지예요. {field}에 대한 주장은 증거를 보고 나서야 믿어요",
            ),
        },
        "barrier": {
            "priceSensitivity": ("가격", "가격이 제품에 비해 합리적이지 않다고 느껴지는 점이에요"),
            "sustainabilityFocus": ("불분명한 출처", "어떻게, 어디서 만들어졌는지 모른다는 점이에요"),
            "brandLoyalty": ("낯선 브랜드", "한 번도 들어 본 적 없는 브랜드라는 점이에요"),
            "noveltySeeking": ("새로울 게 없음", "그저 비슷비슷한 제품처럼 느껴진다는 점이에요"),
            "skepticism": ("증거 없음", "실제로 효과가 있다는 증거 없이 약속만 있다는 점이에요"),
        },
        "improve": {
            "priceSensitivity": ("더 낮은 가격", "가격을 낮추거나 더 단순하고 저렴한 버전을 내 주면 좋겠어요"),
            "sustainabilityFocus": (
                "더 친환경적인 소재",
                "재활용 소재를 더 쓰고 어떻게 만드는지 솔직하게 알려 주면 좋겠어요",
            ),
            "brandLoyalty": ("한결같은 품질", "품질을 한결같이 유지해 주면 좋겠어요. 그래야 계속 찾게 돼요"),
            "noveltySeeking": ("신선한 디자인", "다른 데서 못 본 디자인이나 기능을 더해 주면 좋겠어요"),
            "skepticism": ("정직한 주장", "모든 주장을 독립적인 테스트로 뒷받침해 주면 좋겠어요"),
        },
        "likes": {
            "priceSensitivity": (
                "합리적인 가격",
                "가장 마음에 드는 건 제품에 비해 가격이 합리적으로 보인다는 점이에요",
            ),
            "sustainabilityFocus": ("소재", "가장 마음에 드는 건 소재예요. 재활용 소재라는 게 사실이라면요"),
            "brandLoyalty": ("브랜드", "가장 마음에 드는 건 제가 이미 아는 브랜드라는 점이에요"),
            "noveltySeeking": (
                "새로운 느낌",
                "가장 마음에 드는 건 새롭고 제가 가진 것과 다르게 느껴진다는 점이에요",
            ),
            "skepticism": ("검증 전엔 없음", "솔직히 아직은 없어요. 먼저 제대로 되는지 봐야 해요"),
        },
        "reaction": {
            "priceSensitivity": ("가성비", "가격만 적당하다면요"),
            "sustainabilityFocus": ("환경에 더 좋음", "정말 환경에 더 좋다면요"),
            "brandLoyalty": ("누가 만드는지", "어떤 브랜드가 만드는지가 저한테는 중요하거든요"),
            "noveltySeeking": ("새로운 느낌", "새로운 걸 빨리 접하는 걸 좋아하거든요"),
            "skepticism": ("증거 필요", "다만 효과가 있다는 증거부터 보고 싶어요"),
        },
        "opinion": {
            "priceSensitivity": ("가격이 우선", "저한테는 가격과 그만한 가치가 있는지가 관건이에요"),
            "sustainabilityFocus": ("어떻게 만들어졌는지", "저한테는 얼마나 책임감 있게 만들어졌는지가 관건이에요"),
            "brandLoyalty": ("믿을 수 있는 브랜드", "저한테는 제가 알고 믿는 브랜드인지가 관건이에요"),
            "noveltySeeking": ("새로운 것", "저한테는 새로운 게 있는지가 관건이에요"),
            "skepticism": ("증거", "저한테는 말한 대로 된다는 증거가 관건이에요"),
        },
    },
    usage=(
        ("자주", "{field}의 경우 1년에 몇 번씩 새로 사고, 새로 나오는 것도 챙겨 봐요"),
        ("가끔", "{field}의 경우 1년에 한 번 정도, 쓰던 게 닳으면 새로 사요"),
        ("드물게", "{field}의 경우 거의 안 사요. 가진 걸 망가질 때까지 써요"),
    ),
    brand_habit={
        "priceSensitivity": "둘 중에 세일하는 걸 사요",
        "sustainabilityFocus": "소재에 대해 더 투명한 쪽을 골라요",
        "brandLoyalty": "몇 년째 계속 쓰고 있어요",
        "noveltySeeking": "그래도 작은 브랜드도 계속 써 봐요",
        "skepticism": "제가 믿는 리뷰에서 계속 좋은 평가를 받거든요",
    },
    credible={
        "skepticism": (
            "독립 기관 라벨은 제가 확인할 수 있으니까요. 브랜드가 스스로 하는 주장은 걸러서 들어요",
            "라벨 하나로는 설득이 안 돼요. 그런 주장이 무너지는 걸 너무 많이 봤어요",
        ),
        "sustainabilityFocus": (
            "제가 아는 인증 기관의 라벨이라면 회사 밖의 누군가가 제조 과정을 확인했다는 뜻이니까요",
            "그래도 어떻게 만들어지는지 보고 싶어요. 라벨만으로는 알 수 없어요",
        ),
        "brandLoyalty": (
            "이미 믿는 브랜드에 라벨까지 있으면 그 주장을 더 쉽게 믿게 돼요",
            "저는 상자에 붙은 어떤 라벨보다 제품 뒤의 회사를 더 믿어요",
        ),
        "priceSensitivity": (
            "검증된 라벨이면 주장에 의미가 생겨요. 가격만 오르지 않는다면요",
            "라벨은 주로 값을 더 받으려는 이유로 보여요. 그렇다고 주장이 더 믿음직해지진 않아요",
        ),
        "noveltySeeking": (
            "누가 무엇을 확인했는지 한 줄로 알려 주는 라벨이면 주장이 구체적이 돼요",
            "라벨은 그냥 로고 하나 더일 뿐이에요. 정확히 무엇을 확인하는지 알아야 그 주장을 믿겠어요",
        ),
    },
    credible_too={
        "skepticism": (
            "독립적인 누군가가 확인했다면 그 주장은 브랜드의 자기 자랑 이상이에요",
            "그런 라벨은 돈으로 쉽게 살 수 있어요. 주장 뒤에 실제 수치가 있어야 해요",
        ),
        "sustainabilityFocus": (
            "제3자 라벨이면 제조를 잘 아는 누군가가 그 주장을 살펴봤다는 뜻이에요",
            "라벨로는 소재가 어디서 왔는지 알 수 없어서 주장이 여전히 모호해요",
        ),
        "brandLoyalty": (
            "아는 브랜드라면 검증된 라벨 하나로 충분해요. 그 주장을 쉽게 믿을 것 같아요",
            "주장을 믿을지는 라벨이 아니라 브랜드에 달려 있어요",
        ),
        "priceSensitivity": (
            "다른 곳에서 확인한 라벨이면 주장을 믿을 만해요. 가격이 그대로라면요",
            "라벨이 비싼 가격을 정당화하려고 붙은 것 같아서 주장이 크게 달라지진 않아요",
        ),
        "noveltySeeking": (
            "독립적인 곳의 라벨이면 주장이 진짜처럼 느껴지고, 직접 찾아볼 것 같아요",
            "상자에 라벨이 하나 더 붙는다고 주장을 믿게 되진 않아요. 무엇을 측정했는지 알고 싶어요",
        ),
    },
    says={
        "believable": (
            "정말 효과가 있을 것 같아요",
            "일부는 그럴듯하지만 일부는 직접 봐야 알 것 같아요",
            "너무 좋아서 믿기 어려워요",
        ),
        "recommend": (
            "{field} 중에 이런 거라면 친구들에게 얘기할 거예요",
            "한 번쯤 말할 수는 있지만 사라고 권하지는 않을 거예요",
            "친구에게 제 이름을 걸고 추천하지는 않을 거예요",
        ),
        "bought": (
            "{field}의 경우 자주 사서 어떤 게 나와 있는지 잘 알아요",
            "가끔, 새로 필요할 때 사요",
            "최근에는 이런 걸 산 적이 없어요",
        ),
        "heard": (
            "전에 본 적이 있어서 대략 뭔지 알아요",
            "이름은 들어 본 것 같은데 잘은 몰라요",
            "오늘 처음 들어 봐요",
        ),
        "frequency": (
            "{field}에는 돈을 꽤 쓰고 자주 써요",
            "{field}의 경우 필요할 때만 사요",
            "{field}에는 돈을 많이 쓰지 않아요",
        ),
        "agree": ("제 생각과 같아요", "어느 정도는 그렇게 보지만 아닌 부분도 있어요", "저는 그렇게 보지 않아요"),
        "satisfied": ("필요한 걸 잘 해 줘서 불만이 없어요", "괜찮긴 한데 특별하진 않아요", "여러 번 실망했어요"),
        "different": (
            "전에 본 적 없는 것 같아요",
            "조금 다르긴 한데 크게 다르진 않아요",
            "제가 이미 가진 것과 많이 비슷해 보여요",
        ),
        "intent": ("눈에 띄면 살 것 같아요", "살 수도 있지만 먼저 직접 보고 싶어요", "제가 살 것 같지는 않아요"),
        "appeal": ("마음에 와닿아요", "괜찮지만 설레지는 않아요", "저한테는 별로 와닿지 않아요"),
        "opinion": ("좋은 느낌이에요", "마음이 반반이에요", "별로 내키지 않아요"),
    },
    draws={
        "priceSensitivity": "제품에 비해 가격이 합리적으로 보여요",
        "sustainabilityFocus": "소재가 마음에 들어요",
        "brandLoyalty": "믿을 만한 브랜드 같아요",
        "noveltySeeking": "새로워 보이고, 저는 빨리 써 보는 걸 좋아해요",
        "skepticism": "약속하는 내용이 제가 확인해 볼 수 있는 것 같아요",
    },
    would_decide={
        "priceSensitivity": "결국 가격이 결정할 것 같아요",
        "sustainabilityFocus": "어떻게 만들어졌는지가 결정할 것 같아요",
        "brandLoyalty": "누가 만드는지가 결정할 것 같아요",
        "noveltySeeking": "정말 새로운지가 결정할 것 같아요",
        "skepticism": "믿을 수 있는 테스트 결과가 결정할 것 같아요",
    },
    puts_off={
        "priceSensitivity": "확실히 가치 있는 것에 돈을 쓰고 싶어요",
        "sustainabilityFocus": "어떻게 만들어졌는지 잘 몰라요",
        "brandLoyalty": "아는 브랜드를 계속 쓰는 게 좋아요",
        "noveltySeeking": "비슷비슷한 제품처럼 느껴져요",
        "skepticism": "말한 대로 된다는 증거를 못 봤어요",
    },
    line={
        "who": "{said} {city}에 사는 {role}의 입장에서 말하면, {me}.",
        "who_alone": "{city}에 사는 {role}의 입장에서는",
        "intent_yes": "네, 그럴 것 같아요.",
        "intent_maybe": "글쎄요, 잘 모르겠어요.",
        "intent_no": "아마 아닐 거예요.",
        "intent": "{lead} {reason}.",
        "switch_easy": "저는 꽤 쉽게 바꾸는 편이에요. ",
        "switch_hard": "웬만해서는 안 바꿔요. ",
        "switch": "{lead}{reason}.",
        "credibility_yes": "네, 도움이 될 거예요.",
        "credibility_some": "어느 정도는요.",
        "credibility_no": "그것만으로는 아니에요.",
        "credibility": "{lead} {reason}.",
        "barrier_little": "딱히 망설일 건 없어요. 굳이 꼽자면 {reason}.",
        "barrier": "가장 걸리는 건 {reason}.",
        "reaction_yes": "정말 마음에 들어요",
        "reaction_open": "괜찮은 것 같아요",
        "reaction_no": "솔직히 크게 끌리지는 않아요",
        "reaction": "{opener}. {reason}.",
        "plain": "{reason}.",
        "price_unknown": "가격을 말하려면 먼저 직접 봐야 할 것 같아요.",
        "price_unknown_theme": "먼저 봐야 함",
        "price_paid": "지난번 {field}에는 {paid} 정도 냈는데, 적당했던 것 같아요.",
        "price_paid_compared": "지난번 {field}에는 {paid} 정도 냈어요. 그래서 {asked} 가격은 {verdict}.",
        "price_extra": "평소 {usual}보다 {extra} 더 비싼",
        "price_tested": "최대 {mine} 정도까지 낼 수 있어요. 그래서 {asked} 가격은 {verdict}.",
        "verdict_fine": "괜찮아요",
        "verdict_more": "제가 쓸 금액보다 많아요",
        "theme_asked_or_more": "제시된 가격 이상",
        "theme_less_than_asked": "제시된 가격보다 낮음",
        "because_compare": "저는 항상 가격을 비교하거든요",
        "because_use": "많이 쓸 것 같거든요",
        "price_fair": "{mine} 정도면 적당하다고 느낄 것 같아요. {reason}.",
        "band_under": "{low} 미만",
        "band_over": "{high} 초과",
        "band": "{low}~{high}",
        "had_brand": "{brand} {field}",
        "had_unknown": "이미 알던 브랜드 제품",
        "had_better": "전에는 {used} 쪽을 썼는데, 이게 더 좋아 보여요.",
        "had_better_theme": "쓰던 것보다 좋아 보임",
        "had_same": "전에는 {used} 쪽을 썼는데, 이것도 비슷해 보여요.",
        "had_same_theme": "비슷함",
        "had_rather": "전에는 {used} 쪽을 썼는데, 그걸 계속 쓰고 싶어요.",
        "had_rather_theme": "쓰던 것을 선호",
        "brands_none": "특정 브랜드를 고집하지 않아요. 쓸 만한 걸 사요.",
        "brands_none_theme": "특정 브랜드 없음",
        "brands": "주로 {first}, {second} 제품을 써요. {habit}.",
        "unfit_price": "{field} 가격은 잘 모르지만, 대략 {guess} 정도일 것 같아요.",
        "unfit_brands": "{field} 브랜드는 잘 몰라요. 그냥 있는 걸 써요.",
        "unfit": "솔직히 {field}에 대해서는 잘 몰라서 딱히 의견이 없어요.",
        "unfit_who": "{view} {city}에 사는 {role}의 입장에서는 그래요.",
        "unfit_who_spends": "{view} {city}에 사는 {role}의 입장에서 말하면, 저는 {field}보다 {own}에 돈을 써요.",
        "unfit_theme": "제 분야가 아님",
        "chat_unknown": "{who}의 입장에서는 답하기 전에 좀 더 알아야 할 것 같아요.",
        "closed_unfit": "{field}에 대해서는 잘 몰라서 딱히 의견이 없어요.",
        "closed_none": "이 중에 딱히 중요한 건 없어요.",
        "closed_several": "제가 가장 먼저 보는 부분이에요. {me}.",
        "closed_one": "제가 가장 먼저 보는 부분이에요. {me}.",
        "closed_source": "새로운 {field} 소식은 거기서 가장 많이 접해요. {me}",
        "closed_neither": "딱히 눈에 띄는 건 없어요. {field}의 경우 다른 게 더 중요해요",
        "closed_fits": "그쪽이 저한테 더 맞아요. {me}",
        "closed_unsure": "라벨 뒤에 누가 있는지에 달려 있어요. 믿을 만한 것도 있고 아닌 것도 있어요",
        "closed_habit": "{says}. {me}",
        "closed_why": "{says}. {why}",
        "lead_yes": "네 — ",
        "lead_no": "아니요 — ",
        "lead_maybe": "글쎄요 — ",
        "end": ".",
        "pay_band": "{field}에는 {mine} 정도 낼 것 같아요",
        "pay_extra_fine": "{field}에 {mine} 정도는 낼 수 있어서, {extra} 더 내는 건 괜찮아요",
        "pay_extra_over": "{extra} 더 내면 제가 생각한 {mine} 선을 조금 넘지만, 그래도 낼 거예요",
        "pay_extra_not_worth": "{field}에 {mine} 정도는 낼 수 있지만, {extra} 더 낼 만한 가치는 없어요",
        "pay_extra_too_much": "{field}에 {mine} 정도는 낼 수 있지만, {extra} 더는 너무 많아요",
        "pay_extra_stretch": "{field}에 {mine} 정도는 낼 수 있어서, {extra} 더는 좀 부담돼요",
        "pay_happily": "{mine} 정도는 낼 수 있어서, {field}에 {asked} 정도면 기꺼이 내겠어요",
        "pay_over_but": "{field}에 {asked} 가격은 제가 보통 내는 {mine}보다 많지만, 그래도 내겠어요",
        "pay_never": "{mine} 정도는 낼 수 있지만, {field}에 {asked} 가격은 절대 안 내요",
        "pay_could_but": "{mine} 정도는 낼 수 있어서 {field}에 {asked} 가격을 낼 수는 있지만, 그만한 가치는 없다고 "
        "생각해요",
        "pay_stretch": "{mine} 정도는 낼 수 있어서, {field}에 {asked} 가격은 좀 부담돼요",
        "pay_within": "{mine} 정도는 낼 수 있어서, {field}에 {asked} 가격은 예산 안이지만 한 번 더 생각해 볼 거예요",
        "theme_count": "{theme} ({total}명 중 {count}명)",
        "theme_other": "기타",
        "no_answers": "응답 없음",
        "mean": "평균 {mean}",
    },
)
