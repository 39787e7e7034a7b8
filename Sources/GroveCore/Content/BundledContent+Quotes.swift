extension BundledContent {
    /// Quotes from public-domain works.
    static let quotes: [Item] = [
        (
            "q-seneca-time", .quote, .stoicism,
            "Nothing, Lucilius, is ours, except time. We were entrusted by nature with the ownership of this single thing, so fleeting and slippery that anyone who will can oust us from possession.",
            "Seneca, Moral Letters 1 (tr. R. M. Gummere)"
        ),
        (
            "q-seneca-everywhere", .quote, .stoicism,
            "Everywhere means nowhere. When a person spends all his time in foreign travel, he ends by having many acquaintances, but no friends.",
            "Seneca, Moral Letters 2 (tr. R. M. Gummere)"
        ),
        (
            "q-seneca-waste", .quote, .stoicism,
            "It is not that we have a short time to live, but that we waste much of it. Life is long enough if it is well spent.",
            "Seneca, On the Shortness of Life (paraphrased)"
        ),
        (
            "q-marcus-retreat", .quote, .stoicism,
            "Men seek retreats for themselves, houses in the country, sea-shores, and mountains. But it is in thy power whenever thou shalt choose to retire into thyself.",
            "Marcus Aurelius, Meditations IV.3 (tr. George Long, abridged)"
        ),
        (
            "q-marcus-dignity", .quote, .stoicism,
            "Every moment think steadily to do what thou hast in hand with perfect and simple dignity, and to give thyself relief from all other thoughts.",
            "Marcus Aurelius, Meditations II.5 (tr. George Long, abridged)"
        ),
        (
            "q-marcus-present", .quote, .stoicism,
            "Do not disturb yourself by picturing your life as a whole. Ask of each present difficulty: what here is unbearable? You will be ashamed to answer.",
            "Marcus Aurelius, Meditations VIII.36 (paraphrased)"
        ),
        (
            "q-epictetus-views", .quote, .stoicism,
            "People are disturbed not by things themselves, but by the views they take of them. Look for the trouble in your judgement first.",
            "Epictetus, Enchiridion 5 (paraphrased)"
        ),
        (
            "q-epictetus-control", .quote, .stoicism,
            "Some things are within our power and some are not. Our opinions, our aims, our desires are ours; put your effort there and let the rest go.",
            "Epictetus, Enchiridion 1 (paraphrased)"
        ),
        (
            "q-thoreau-woods", .quote, .mindfulness,
            "I went to the woods because I wished to live deliberately, to front only the essential facts of life, and see if I could not learn what it had to teach.",
            "Henry David Thoreau, Walden"
        ),
        (
            "q-thoreau-detail", .quote, .productivity,
            "Our life is frittered away by detail. An honest man has hardly need to count more than his ten fingers. Simplicity, simplicity, simplicity!",
            "Henry David Thoreau, Walden (abridged)"
        ),
        (
            "q-franklin-time", .quote, .productivity,
            "Dost thou love life? Then do not squander time, for that's the stuff life is made of.",
            "Benjamin Franklin, Poor Richard's Almanack"
        ),
        (
            "q-james-attend", .quote, .mindfulness,
            "My experience is what I agree to attend to. Only those items which I notice shape my mind.",
            "William James, The Principles of Psychology"
        ),
        (
            "q-pascal-room", .quote, .philosophy,
            "All the unhappiness of men arises from one single fact, that they cannot stay quietly in their own chamber.",
            "Blaise Pascal, Pensées 139 (tr. W. F. Trotter)"
        ),
        (
            "q-emerson-peace", .quote, .philosophy,
            "Nothing can bring you peace but yourself. Nothing can bring you peace but the triumph of principles.",
            "Ralph Waldo Emerson, Self-Reliance"
        ),
        (
            "q-muir-mountain", .quote, .nature,
            "Keep close to Nature's heart, and break clear away, once in a while, and climb a mountain or spend a week in the woods. Wash your spirit clean.",
            "John Muir (attributed)"
        ),
        (
            "q-thoreau-morning", .quote, .nature,
            "Every morning was a cheerful invitation to make my life of equal simplicity, and I may say innocence, with Nature herself.",
            "Henry David Thoreau, Walden"
        ),
        (
            "q-aurelius-gratitude", .quote, .gratitude,
            "When you arise in the morning, think of what a precious privilege it is to be alive: to breathe, to think, to enjoy, to love.",
            "Marcus Aurelius, Meditations (paraphrased)"
        ),
        (
            "q-seneca-gratitude", .quote, .gratitude,
            "True happiness is to enjoy the present without anxious dependence upon the future, and to be content with what we have, which is sufficient.",
            "Seneca (paraphrased)"
        ),
        (
            "q-james-habit", .quote, .productivity,
            "The great thing is to make our nervous system our ally instead of our enemy: to make automatic and habitual, as early as possible, as many useful actions as we can.",
            "William James, The Principles of Psychology (abridged)"
        ),
        (
            "q-lao-tzu-journey", .quote, .philosophy,
            "A journey of a thousand miles begins beneath one's feet. Great things are done by a series of small things brought together.",
            "after the Tao Te Ching 64 (paraphrased)"
        ),
    ]
}
