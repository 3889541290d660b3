"""A Mind's words in Spanish, in the first person (see ``phrases`` for what each table holds).

The field a Mind names ("zapatillas", "ropa") only follows a preposition ("en", "de", "por"), where it needs no
article."""

from __future__ import annotations

from minds_sandbox.phrases import Phrases

_ABOUT_ME = {
    "priceSensitivity": "comparo precios antes de comprar cualquier cosa",
    "sustainabilityFocus": "me fijo mucho en de qué están hechas las cosas",
    "brandLoyalty": "suelo quedarme con las marcas que conozco",
    "noveltySeeking": "suelo ser de los primeros en probar algo nuevo",
    "skepticism": "he visto muchas promesas que luego no se cumplieron",
}

PHRASES = Phrases(
    lang="es",
    fields={
        "": "productos como este",
        "footwear": "zapatillas",
        "apparel": "ropa",
        "skincare": "cosmética",
        "software": "software",
        "food": "comida y bebida",
    },
    about_me=_ABOUT_ME,
    after_speaker=_ABOUT_ME,
    reasons={
        "use": {
            "priceSensitivity": ("Uso diario", "Primero para el día a día, en lugar de lo que compraría normalmente"),
            "sustainabilityFocus": (
                "Sustituir algo menos sostenible",
                "Primero para sustituir algo que tengo y que es menos sostenible",
            ),
            "brandLoyalty": (
                "Junto a mi marca de siempre",
                "Primero para lo que suelo usar mi marca de siempre, a ver si está a la altura",
            ),
            "noveltySeeking": ("Probarlo enseguida", "Enseguida, en algo donde la gente lo note"),
            "skepticism": ("Primero una prueba corta", "Primero para una prueba corta, a ver si hace lo que dice"),
        },
        "switch": {
            "priceSensitivity": (
                "Un mejor precio",
                "Un precio claramente mejor: la misma calidad por una quinta parte menos y me cambiaría",
            ),
            "brandLoyalty": (
                "Solo una mala experiencia",
                "Solo una decepción: mientras la calidad de mi marca actual no baje, me quedo con ella",
            ),
            "noveltySeeking": (
                "Algo realmente nuevo",
                "Algo realmente nuevo: una tecnología o un diseño que nadie más tenga todavía",
            ),
            "sustainabilityFocus": (
                "Sostenibilidad demostrada",
                "Una marca que pueda demostrar que es más sostenible, con materiales reciclados y un servicio de "
                "recogida, me convencería",
            ),
            "skepticism": (
                "Pruebas independientes",
                "Pruebas independientes que demuestren que de verdad rinde mejor; la publicidad sola no me haría "
                "cambiar",
            ),
        },
        "credibility": {
            "skepticism": (
                "Solo con verificación independiente",
                "Solo si un organismo independiente comprueba los datos; una etiqueta inventada por la propia empresa "
                "me haría confiar menos en lo que dice",
            ),
            "sustainabilityFocus": (
                "Un certificador que conozco",
                "Ayuda si la etiqueta viene de un certificador que conozco, porque entonces la afirmación es más que "
                "marketing",
            ),
            "brandLoyalty": (
                "Importa más la marca",
                "Confío más en la empresa que hay detrás del producto que en cualquier etiqueta",
            ),
            "priceSensitivity": (
                "No si cuesta más",
                "Ayudaría, pero no si la etiqueta se convierte en una excusa para cobrar más",
            ),
            "noveltySeeking": (
                "Una explicación clara",
                "Ayuda si la etiqueta dice en una línea qué se comprobó y quién lo hizo",
            ),
        },
        "why": {
            "priceSensitivity": (
                "Precio y valor",
                "Sobre todo el precio: en {field} miro qué obtengo por mi dinero, y tiene que parecerme justo",
            ),
            "sustainabilityFocus": (
                "Sostenibilidad",
                "Sobre todo cómo está hecho: me importa si en {field} se usan materiales reciclados o producidos de "
                "forma responsable",
            ),
            "brandLoyalty": (
                "Confianza en la marca",
                "Sobre todo la confianza: me quedo con las marcas que no me han fallado",
            ),
            "noveltySeeking": (
                "Novedad",
                "Sobre todo la curiosidad: me gusta probar novedades en {field} antes que nadie",
            ),
            "skepticism": (
                "Pruebas de que funciona",
                "Sobre todo si funciona: solo me creo lo que se dice de {field} cuando he visto pruebas",
            ),
        },
        "barrier": {
            "priceSensitivity": ("El precio", "un precio que no me parezca justo para lo que es"),
            "sustainabilityFocus": ("Origen poco claro", "no saber cómo ni dónde está hecho"),
            "brandLoyalty": ("Una marca desconocida", "una marca de la que nunca he oído hablar"),
            "noveltySeeking": ("Más de lo mismo", "la sensación de que es más de lo mismo"),
            "skepticism": ("Sin pruebas", "promesas sin pruebas de que realmente funciona"),
        },
        "improve": {
            "priceSensitivity": (
                "Un precio más bajo",
                "Bajaría el precio u ofrecería una versión más sencilla y barata",
            ),
            "sustainabilityFocus": (
                "Materiales más sostenibles",
                "Usaría más materiales reciclados y explicaría claramente cómo está hecho",
            ),
            "brandLoyalty": ("Calidad constante", "Mantendría la calidad constante; eso es lo que hace que vuelva"),
            "noveltySeeking": (
                "Un diseño nuevo",
                "Añadiría algo que no haya visto en otro sitio, un diseño o una función",
            ),
            "skepticism": ("Afirmaciones honestas", "Respaldaría cada afirmación con una prueba independiente"),
        },
        "likes": {
            "priceSensitivity": (
                "Un precio justo",
                "Lo que más me gusta es que parece tener un precio justo para lo que es",
            ),
            "sustainabilityFocus": (
                "Los materiales",
                "Lo que más me gusta es de qué está hecho, si lo del material reciclado es verdad",
            ),
            "brandLoyalty": (
                "La marca que hay detrás",
                "Lo que más me gusta es la marca que hay detrás, que ya conozco",
            ),
            "noveltySeeking": (
                "Se siente nuevo",
                "Lo que más me gusta es que se siente nuevo y distinto a lo que tengo",
            ),
            "skepticism": (
                "Nada hasta que lo demuestre",
                "Nada todavía, la verdad; primero tendría que ver que cumple lo que promete",
            ),
        },
        "reaction": {
            "priceSensitivity": ("Relación calidad-precio", "siempre que el precio sea justo"),
            "sustainabilityFocus": ("Mejor para el planeta", "si de verdad es mejor para el planeta"),
            "brandLoyalty": ("Quién está detrás", "porque me importa qué marca hay detrás"),
            "noveltySeeking": ("Se siente nuevo", "porque me gusta ser de los primeros en probar cosas nuevas"),
            "skepticism": ("Necesita pruebas", "pero primero querría pruebas de que funciona"),
        },
        "opinion": {
            "priceSensitivity": ("Primero el precio", "Para mí todo depende del precio y de si vale la pena"),
            "sustainabilityFocus": (
                "Cómo está hecho",
                "Para mí todo depende de lo responsable que sea su fabricación",
            ),
            "brandLoyalty": (
                "Marcas de confianza",
                "Para mí todo depende de si conozco la marca y confío en ella",
            ),
            "noveltySeeking": ("Algo nuevo", "Para mí todo depende de si aporta algo nuevo"),
            "skepticism": ("Pruebas", "Para mí todo depende de que haya pruebas de que hace lo que dice"),
        },
    },
    usage=(
        ("Con frecuencia", "Gasto en {field} varias veces al año y estoy atento a las novedades"),
        ("De vez en cuando", "Gasto en {field} más o menos una vez al año, cuando lo viejo ya está gastado"),
        ("Rara vez", "Rara vez gasto en {field}; uso lo que tengo hasta que se rompe"),
    ),
    brand_habit={
        "priceSensitivity": "compro la que esté de oferta",
        "sustainabilityFocus": "elijo la que es más transparente con sus materiales",
        "brandLoyalty": "les soy fiel desde hace años",
        "noveltySeeking": "aunque también voy probando marcas más pequeñas",
        "skepticism": "porque las reseñas en las que confío las valoran bien",
    },
    credible={
        "skepticism": (
            "una etiqueta independiente es algo que puedo comprobar; lo que una marca dice de sí misma me lo tomo con "
            "cautela",
            "una etiqueta sola no me convence; he visto demasiadas afirmaciones así venirse abajo",
        ),
        "sustainabilityFocus": (
            "una etiqueta de un certificador que conozco significa que alguien ajeno a la empresa ha revisado cómo "
            "está hecho",
            "aun así querría ver cómo está hecho; una etiqueta sola no me lo dice",
        ),
        "brandLoyalty": (
            "una etiqueta en una marca en la que ya confío hace que la afirmación sea más fácil de creer",
            "confío más en la empresa que hay detrás que en cualquier etiqueta que ponga en la caja",
        ),
        "priceSensitivity": (
            "una etiqueta verificada le da valor a la afirmación, siempre que no suba el precio",
            "una etiqueta me parece sobre todo una excusa para cobrar más; no hace que la afirmación sea más creíble",
        ),
        "noveltySeeking": (
            "una etiqueta que dice en una línea qué se comprobó y quién lo hizo hace que la afirmación sea concreta",
            "para mí una etiqueta es solo un logo más; necesitaría saber qué comprueba exactamente antes de creerme "
            "la afirmación",
        ),
    },
    credible_too={
        "skepticism": (
            "si alguien independiente lo ha comprobado, la afirmación es más que la marca hablando de sí misma",
            "etiquetas así se compran fácilmente; la afirmación necesitaría datos reales detrás",
        ),
        "sustainabilityFocus": (
            "una etiqueta de terceros me dice que alguien que sabe cómo se fabrican las cosas ha revisado la "
            "afirmación",
            "una etiqueta no me muestra de dónde vienen los materiales, así que la afirmación sigue siendo vaga",
        ),
        "brandLoyalty": (
            "viniendo de una marca que conozco, una etiqueta verificada lo dejaría claro; la afirmación sería fácil "
            "de creer",
            "que me crea la afirmación depende de la marca, no de una etiqueta",
        ),
        "priceSensitivity": (
            "una etiqueta que ha comprobado otra persona hace creíble la afirmación, si el precio no cambia",
            "sospecharía que la etiqueta está ahí para justificar un precio más alto, así que la afirmación no gana "
            "mucho",
        ),
        "noveltySeeking": (
            "una etiqueta de alguien independiente hace que la afirmación parezca real, y la buscaría",
            "una etiqueta más en la caja no hará creíble la afirmación; querría saber qué se midió",
        ),
    },
    says={
        "believable": (
            "suena a algo que de verdad funcionaría",
            "parte suena creíble, parte querría verlo primero",
            "suena demasiado bueno para ser verdad",
        ),
        "recommend": (
            "les hablaría a mis amigos de algo así",
            "puede que lo mencionara, pero no animaría a nadie a comprarlo",
            "no se lo recomendaría a un amigo",
        ),
        "bought": (
            "gasto en {field} con regularidad, así que sé lo que hay",
            "de vez en cuando, cuando necesito algo nuevo",
            "no he comprado nada parecido últimamente",
        ),
        "heard": (
            "ya me lo había encontrado y sé más o menos qué es",
            "el nombre me suena, pero no sabría decir mucho",
            "es la primera vez que oigo hablar de ello",
        ),
        "frequency": (
            "en {field} gasto bastante y lo uso mucho",
            "en {field} gasto lo que necesito, nada más",
            "no gasto mucho en {field}",
        ),
        "agree": ("coincide con lo que pienso", "en parte lo veo así y en parte no", "no lo veo así"),
        "satisfied": (
            "hace lo que necesito y no he tenido motivos de queja",
            "está bien, aunque no es nada especial",
            "me ha fallado más de una vez",
        ),
        "different": (
            "parece algo que no había visto antes",
            "es algo distinto, pero no mucho",
            "se parece mucho a lo que ya tengo",
        ),
        "intent": (
            "lo compraría si me lo encontrara",
            "puede ser, pero primero querría verlo en persona",
            "no me veo comprándolo",
        ),
        "appeal": ("me dice algo", "está bien, pero no me entusiasma", "no me dice gran cosa"),
        "opinion": ("me da buena impresión", "tengo sentimientos encontrados", "no me convence"),
    },
    draws={
        "priceSensitivity": "parece tener un precio justo para lo que es",
        "sustainabilityFocus": "me gusta de qué está hecho",
        "brandLoyalty": "la marca que hay detrás me daría confianza",
        "noveltySeeking": "se siente nuevo y me gusta ser de los primeros",
        "skepticism": "lo que promete parece algo que podría comprobar",
    },
    would_decide={
        "priceSensitivity": "lo decidiría el precio",
        "sustainabilityFocus": "lo decidiría cómo está hecho",
        "brandLoyalty": "lo decidiría quién lo fabrica",
        "noveltySeeking": "lo decidiría si de verdad es nuevo",
        "skepticism": "lo decidiría una prueba en la que confíe",
    },
    puts_off={
        "priceSensitivity": "prefiero guardar mi dinero para algo que sé que vale la pena",
        "sustainabilityFocus": "no sé lo suficiente sobre cómo está hecho",
        "brandLoyalty": "prefiero quedarme con las marcas que conozco",
        "noveltySeeking": "parece más de lo mismo",
        "skepticism": "no he visto pruebas de que haga lo que dice",
    },
    line={
        "who": "{said} Como {role} en {city}, {me}.",
        "who_alone": "Como {role} en {city}",
        "intent_yes": "Sí, lo haría.",
        "intent_maybe": "Quizá.",
        "intent_no": "Probablemente no.",
        "intent": "{lead} {reason}.",
        "switch_easy": "Cambio con bastante facilidad. ",
        "switch_hard": "Haría falta mucho. ",
        "switch": "{lead}{reason}.",
        "credibility_yes": "Sí, ayudaría.",
        "credibility_some": "En parte.",
        "credibility_no": "Por sí sola, no.",
        "credibility": "{lead} {reason}.",
        "barrier_little": "Poca cosa me frenaría. Como mucho, {reason}.",
        "barrier": "Lo principal sería {reason}.",
        "reaction_yes": "Me gusta mucho",
        "reaction_open": "Estoy abierto a probarlo",
        "reaction_no": "No me convence",
        "reaction": "{opener}, {reason}.",
        "plain": "{reason}.",
        "price_unknown": "Tendría que verlo antes de poder decir un precio.",
        "price_unknown_theme": "Necesita verlo primero",
        "price_paid": "La última vez pagué unos {paid} en {field}, y me pareció razonable.",
        "price_paid_compared": "La última vez pagué unos {paid} en {field}; {asked} {verdict}.",
        "price_extra": "{extra} más que los {usual} habituales",
        "price_tested": "Pagaría como mucho unos {mine}; {asked} {verdict}.",
        "verdict_fine": "me parecería bien",
        "verdict_more": "es más de lo que gastaría",
        "theme_asked_or_more": "El precio propuesto o más",
        "theme_less_than_asked": "Menos que el precio propuesto",
        "because_compare": "porque siempre comparo precios",
        "because_use": "porque lo usaría mucho",
        "price_fair": "Unos {mine} me parecerían justos, {reason}.",
        "band_under": "Menos de {low}",
        "band_over": "Más de {high}",
        "band": "De {low} a {high}",
        "had_brand": "algo de {brand}",
        "had_unknown": "algo de una marca que ya conocía",
        "had_better": "Tenía {used}; esto me parece mejor.",
        "had_better_theme": "Mejor que lo que tenía",
        "had_same": "Tenía {used}; esto me parece más o menos igual.",
        "had_same_theme": "Más o menos igual",
        "had_rather": "Tenía {used} y prefiero quedarme con eso.",
        "had_rather_theme": "Prefiere lo que tenía",
        "brands_none": "No me caso con ninguna marca; compro lo que cumple su función.",
        "brands_none_theme": "Ninguna marca en particular",
        "brands_none_bought": "Ahora mismo no compro {field}, así que ninguna marca en particular.",
        "brands_none_bought_theme": "No compra",
        "brands": "Sobre todo {first} y {second}; {habit}.",
        "unfit_price": "No sé bien cuánto se paga por {field}; calcularía unos {guess}.",
        "unfit_brands": "No sigo las marcas de {field}; uso lo que tengo.",
        "unfit": "La verdad es que no sé mucho de {field}, así que no tengo una opinión clara.",
        "unfit_who": "{view} Soy {role} en {city}.",
        "unfit_who_spends": "{view} Como {role} en {city}, gasto mi dinero en {own}, no en {field}.",
        "unfit_theme": "No es lo mío",
        "chat_unknown": "Como {who}, necesitaría saber más antes de responder a eso.",
        "closed_unfit": "No sé mucho de {field}, así que no tengo una opinión clara.",
        "closed_none": "Nada de esto me importa demasiado.",
        "closed_several": "Es en lo que primero me fijo, porque {me}.",
        "closed_one": "Es en lo que primero me fijo, porque {me}.",
        "closed_source": "ahí es donde más me fijo en novedades de {field}, porque {me}",
        "closed_neither": "ninguna destaca para mí; en {field} deciden otras cosas",
        "closed_fits": "esa encaja mejor conmigo, porque {me}",
        "closed_unsure": "depende de quién esté detrás de la etiqueta; a algunas las creería y a otras no",
        "closed_habit": "{says}; {me}",
        "closed_why": "{says}; {why}",
        "lead_yes": "Sí — ",
        "lead_no": "No — ",
        "lead_maybe": "Quizá — ",
        "end": ".",
        "pay_band": "Pagaría unos {mine} por {field}",
        "pay_extra_fine": "Pagaría unos {mine} por {field}, así que {extra} más me parece bien",
        "pay_extra_over": "{extra} más me sitúa un poco por encima de los {mine} que pagaría, pero lo pagaría",
        "pay_extra_not_worth": "Pagaría unos {mine} por {field}, pero {extra} más no me compensan",
        "pay_extra_too_much": "Pagaría unos {mine} por {field}; {extra} más es demasiado",
        "pay_extra_stretch": "Pagaría unos {mine} por {field}, así que {extra} más ya es mucho",
        "pay_happily": "Pagaría unos {mine}, así que pagaría {asked} por {field} con gusto",
        "pay_over_but": "{asked} por {field} es más de los {mine} que suelo pagar, pero lo pagaría",
        "pay_never": "Pagaría unos {mine}; nunca pagaría {asked} por {field}",
        "pay_could_but": "Pagaría unos {mine}, así que podría pagar {asked} por {field}, pero no creo que lo valga",
        "pay_stretch": "Pagaría unos {mine}, así que pagar {asked} por {field} ya es mucho",
        "pay_within": "Pagaría unos {mine}, así que {asked} por {field} entra en mi presupuesto, aunque me lo pensaría",
        "theme_count": "{theme} ({count} de {total})",
        "theme_other": "Otros",
        "no_answers": "sin respuestas",
        "summary_most": "La mayoría eligió {option} ({pct} %, n={n}).",
        "summary_mean": "Media de {mean} en {low}–{high} (n={n}).",
        "summary_theme": "Tema principal: {theme} (n={n}).",
        "summary_none": "No hay respuestas registradas.",
        "mean": "media {mean}",
    },
)
