/// The content pack shipped with Grove: what a pause shows when nothing else is installed.
///
/// Attribution is truthful: quotes and excerpts come from public-domain works (the translator and
/// work are named; "paraphrased" marks a wording in Grove's own words), and everything else was written
/// for Grove and is credited to it.
public enum BundledContent {
    /// Version of the pack; bumped when items change so that stores refresh them.
    public static let version = 1

    public static let all: [MindfulnessContent] = (quotes + items).map { item in
        MindfulnessContent(id: item.0, type: item.1, text: item.3, category: item.2, author: item.4, isBundled: true)
    }

    typealias T = MindfulnessContent.ContentType
    typealias C = MindfulnessContent.ContentCategory
    typealias Item = (String, T, C, String, String?)

    /// Excerpts and prompts (the quotes are in `BundledContent+Quotes.swift`).
    private static let items: [(String, T, C, String, String?)] = [
        // Excerpts: longer passages to sit with.
        (
            "e-walden-simplify", .excerpt, .productivity,
            "Thoreau built his cabin for twenty-eight dollars and kept his accounts to the cent. His point was not thrift but attention: every hour spent maintaining what we do not need is an hour not lived. Before opening the next app, ask what it will cost you in hours, and what you would buy with them instead.",
            "Grove, on Walden"
        ),
        (
            "e-meditations-morning", .excerpt, .stoicism,
            "Marcus Aurelius began his mornings by expecting to meet difficult people, not to brace for a fight, but so that nothing would surprise him into anger. Expect the feed to be loud and demanding. You can look at it, and still decide what you will carry away from it.",
            "Grove, on Meditations II.1"
        ),
        (
            "e-seneca-letters", .excerpt, .stoicism,
            "Seneca advised his friend to claim his time back: some of it is taken from us, some filched, some simply slips away. The most shameful loss, he said, is the one that comes through carelessness. A pause is a small act of reclaiming.",
            "Grove, on Moral Letters 1"
        ),
        (
            "e-james-attention", .excerpt, .mindfulness,
            "William James wrote that the faculty of voluntarily bringing back a wandering attention, over and over again, is the very root of judgement, character and will. Each time you notice the pull and return, you are training exactly that.",
            "Grove, on The Principles of Psychology"
        ),
        (
            "e-forest-bathing", .excerpt, .nature,
            "A tree does not hurry, and it does not stop. It adds a ring a year, thin in hard years and wide in good ones, and each ring holds the whole tree up. Your sessions are rings. Thin or wide, they all count.",
            "Grove"
        ),
        (
            "e-gratitude-three", .excerpt, .gratitude,
            "Researchers who ask people to write down a few good things each evening find that the practice shifts attention toward what is already going well. It takes a minute. Name three things from today, however small: a warm drink, a kind word, a finished task.",
            "Grove"
        ),
        (
            "e-deep-work", .excerpt, .productivity,
            "Switching tasks leaves a residue: part of your attention stays with what you left. Each quick check costs more than the seconds it takes, because the mind needs minutes to settle back. Protect one stretch of unbroken time today, and notice how much it holds.",
            "Grove"
        ),
        (
            "e-breath-box", .excerpt, .mindfulness,
            "Box breathing: breathe in for four counts, hold for four, breathe out for four, hold for four. Repeat it three times. The slow exhale tells your nervous system that nothing urgent is happening, because, right now, nothing is.",
            "Grove"
        ),
        (
            "e-stoic-dichotomy", .excerpt, .philosophy,
            "The Stoics sorted everything into two piles: what is up to us and what is not. Other people's posts, likes and opinions sit in the second pile. Your attention, your response and your next hour sit in the first. Spend your effort on the first pile.",
            "Grove, on Epictetus"
        ),
        (
            "e-seasons", .excerpt, .nature,
            "Nature does not bloom all year. There are seasons of growth and seasons of rest, and both are part of the cycle. If today feels like winter, that is not failure. Roots grow in winter.",
            "Grove"
        ),
        // Prompts: a question to answer before going on.
        (
            "p-why-now", .prompt, .mindfulness,
            "Why are you opening this app right now? Name the feeling that sent you here: boredom, stress, habit, or something you genuinely need.",
            "Grove"
        ),
        (
            "p-three-breaths", .prompt, .mindfulness,
            "Take three slow breaths before you decide. Feel your feet on the floor and your shoulders drop. Then choose, rather than react.",
            "Grove"
        ),
        (
            "p-body-scan", .prompt, .mindfulness,
            "Notice your body for a moment. Where are you holding tension: jaw, shoulders, hands? Let that place soften as you breathe out.",
            "Grove"
        ),
        (
            "p-what-instead", .prompt, .productivity,
            "If you closed this app now, what is the one thing you would do instead? Could you do it for just five minutes first?", "Grove"
        ),
        (
            "p-one-task", .prompt, .productivity,
            "What is the single most important task waiting for you today? What is the smallest next step you could take on it right now?",
            "Grove"
        ),
        (
            "p-future-self", .prompt, .productivity,
            "Picture yourself at the end of today. What would you be glad you spent this next half hour on?", "Grove"
        ),
        (
            "p-enough", .prompt, .gratitude,
            "Name one thing you already have today that you once hoped for. Let yourself feel, for a moment, that it is enough.", "Grove"
        ),
        (
            "p-thank-someone", .prompt, .gratitude,
            "Think of someone who made your week a little easier. Could you send them a short note of thanks instead of scrolling?", "Grove"
        ),
        (
            "p-small-joy", .prompt, .gratitude,
            "What is one small pleasure you noticed today: a taste, a sound, a patch of light? Hold it in mind for a few breaths.", "Grove"
        ),
        (
            "p-look-outside", .prompt, .nature,
            "Look out of the nearest window, or picture the last tree you saw. What is the sky doing right now? Watch it for a moment.",
            "Grove"
        ),
        (
            "p-walk", .prompt, .nature,
            "Could this be a walk instead? Even five minutes outside resets attention better than five minutes on a screen.", "Grove"
        ),
        (
            "p-plant", .prompt, .nature,
            "Imagine planting a seed and watching it for the next twenty-five minutes. Would you rather grow something, or scroll past it?",
            "Grove"
        ),
        (
            "p-control", .prompt, .stoicism,
            "What in this app is within your control, and what is not? If what you will find there is mostly not, is it worth your next ten minutes?",
            "Grove"
        ),
        (
            "p-memento", .prompt, .stoicism,
            "Your time is limited and this hour will not come back. Is this app how you want to spend a piece of it?", "Grove"
        ),
        (
            "p-judgement", .prompt, .stoicism,
            "Is something bothering you right now? Separate what happened from the story you are telling about it. Which one is actually heavy?",
            "Grove"
        ),
        (
            "p-values", .prompt, .philosophy,
            "Which value of yours would this next ten minutes serve: connection, rest, learning, or none of them? Choose with that in mind.",
            "Grove"
        ),
        (
            "p-enough-info", .prompt, .philosophy,
            "Will knowing what is new in there make your evening better? Most news and feeds will still be there, unchanged, in an hour.",
            "Grove"
        ),
        (
            "p-meaning", .prompt, .philosophy,
            "What would make today feel meaningful when you look back on it? Is there one step toward that you could take right now?",
            "Grove"
        ),
        (
            "p-intention", .prompt, .mindfulness,
            "Set an intention for this visit before you go in: what exactly are you looking for, and how long will you stay? Then keep to it.",
            "Grove"
        ),
        (
            "p-energy", .prompt, .productivity,
            "How is your energy right now, on a scale of one to ten? If it is low, would rest, water or a stretch help more than the feed?",
            "Grove"
        ),
        (
            "p-finish-line", .prompt, .productivity,
            "Is there something half-finished nagging at you? Finishing it for ten minutes might feel better than any notification.",
            "Grove"
        ),
        (
            "p-people", .prompt, .gratitude,
            "Who in your life would you like to hear from today? Instead of watching strangers, could you reach out to them directly?",
            "Grove"
        ),
        (
            "p-listen", .prompt, .mindfulness,
            "Close your eyes and count the sounds you can hear: near, far, inside, outside. Stay with them until the countdown ends.",
            "Grove"
        ),
        (
            "p-sky", .prompt, .nature,
            "Think of the oldest tree you know. It has stood through storms and quiet years alike. What would it make of your hurry?",
            "Grove"
        ),
        (
            "p-rest", .prompt, .mindfulness,
            "Are you reaching for this app because you are tired? Real rest might be closing your eyes for the length of this pause.",
            "Grove"
        ),
        (
            "p-review", .prompt, .stoicism,
            "The Stoics reviewed each day in the evening: what went well, what could go better. What is one thing you would like to go better today?",
            "Grove"
        ),
        (
            "p-curiosity", .prompt, .philosophy,
            "What are you genuinely curious about today? Could you spend this next stretch learning about it properly instead of skimming?",
            "Grove"
        ),
        (
            "p-gift", .prompt, .gratitude,
            "Your attention is a gift you give to whatever you look at. Who or what deserves that gift from you today?", "Grove"
        ),
        (
            "p-tidy", .prompt, .productivity,
            "Look at the space around you. Is there one small thing you could tidy in the length of this pause? A clear desk clears the mind.",
            "Grove"
        ),
        (
            "p-seasons", .prompt, .nature,
            "What season is it outside, and what season is it in your work? Some days are for planting and some are for rest.", "Grove"
        ),
        (
            "p-kindness", .prompt, .philosophy,
            "What would a kind response to yourself be right now: more stimulation, or a moment of quiet? Give yourself the kinder one.",
            "Grove"
        ),
    ]
}
