import Crypto
import Foundation
import GroveCore

/// The recovery code: 16 random bytes as 17 words (one per byte, then a check word), shown once when
/// an account is encrypted. With it the data key opens without the passphrase (`grove sync unlock
/// --recovery`); the check word catches a mistyped or missing word before any key is tried.
public struct RecoveryCode: Sendable, Equatable, CustomStringConvertible {
    /// The code's 128 random bits.
    public let bytes: [UInt8]

    /// A new random code.
    public static func random() -> RecoveryCode {
        var generator = SystemRandomNumberGenerator()
        return RecoveryCode(bytes: (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    init(bytes: [UInt8]) { self.bytes = bytes }

    /// Reads typed words (any case; spaces, commas or dashes between them).
    public init(words text: String) throws(InvalidField) {
        let words = text.lowercased().split(whereSeparator: { !$0.isLetter }).map(String.init)
        guard words.count == 17 else { throw InvalidField("recovery", "A recovery code has 17 words; this has \(words.count)") }
        var bytes: [UInt8] = []
        for (position, word) in words.enumerated() {
            guard let value = Self.index[word] else {
                throw InvalidField("recovery", "Word \(position + 1), \"\(word.prefix(20))\", is not a recovery word")
            }
            bytes.append(value)
        }
        let check = bytes.removeLast()
        guard Self.checkByte(bytes) == check else {
            throw InvalidField("recovery", "The words do not check out: one is mistyped or out of place")
        }
        self.bytes = bytes
    }

    /// The words, check word last.
    public var words: [String] { (bytes + [Self.checkByte(bytes)]).map { Self.list[Int($0)] } }

    public var description: String { words.joined(separator: " ") }

    static func checkByte(_ bytes: [UInt8]) -> UInt8 { Array(SHA256.hash(data: Data(bytes))).first ?? 0 }

    /// 256 plain words, one per byte value.
    static let list: [String] = [
        "acid", "acorn", "actor", "adapt", "admit", "agent", "alarm", "album", "alert", "alley", "allow", "alpha", "amber",
        "anchor", "ankle", "apple", "april", "apron", "arena", "argue", "armor", "arrow", "aspen", "attic", "audio", "autumn",
        "avocado", "awake", "axis", "bacon", "badge", "bagel", "balance", "bamboo", "banana", "banjo", "barley", "basil",
        "basket", "beach", "beacon", "beaver", "bench", "berry", "bicycle", "biscuit", "bison", "blanket", "blossom", "blue",
        "border", "bottle", "bracket", "branch", "brave", "bread", "breeze", "brick", "bridge", "broccoli", "bronze", "brook",
        "bubble", "bucket", "buffalo", "bundle", "butter", "cabin", "camel", "candle", "canoe", "canvas", "canyon", "captain",
        "carbon", "carpet", "carrot", "cattle", "cedar", "cellar", "cement", "cherry", "chess", "chimney", "cider", "cinema",
        "citrus", "clover", "cobalt", "coconut", "coffee", "comet", "copper", "coral", "cotton", "crayon", "cricket", "crystal",
        "cupboard", "curtain", "cycle", "dairy", "daisy", "dancer", "delta", "denim", "desert", "diamond", "dinner", "dolphin",
        "donkey", "dragon", "drum", "earth", "easel", "echo", "elbow", "ember", "engine", "envelope", "falcon", "feather",
        "fiddle", "field", "finch", "flame", "flute", "forest", "fossil", "fountain", "fox", "garlic", "gazelle", "ginger",
        "glacier", "glove", "granite", "grape", "gravel", "guitar", "harbor", "harvest", "hazel", "helmet", "heron", "hickory",
        "honey", "horizon", "hunter", "igloo", "island", "ivory", "jacket", "jasmine", "jelly", "jigsaw", "jungle", "kayak",
        "kitten", "ladder", "lagoon", "lantern", "lemon", "lettuce", "library", "lily", "linen", "lobster", "locket", "lotus",
        "lumber", "magnet", "mango", "maple", "marble", "meadow", "mirror", "mitten", "monkey", "mosaic", "muffin", "mustard",
        "napkin", "nectar", "needle", "oasis", "ocean", "olive", "onion", "orange", "orchard", "otter", "oyster", "paddle",
        "panda", "paper", "parrot", "pasta", "peach", "pebble", "pepper", "piano", "pigeon", "pine", "planet", "plum", "pocket",
        "pony", "poppy", "potato", "prairie", "pumpkin", "quartz", "quill", "rabbit", "radio", "raisin", "raven", "ribbon",
        "river", "robin", "saddle", "salmon", "sandal", "satin", "season", "shadow", "shell", "silver", "sketch", "spider",
        "spinach", "spring", "sprout", "squash", "summit", "sunset", "tablet", "teapot", "thunder", "tiger", "timber", "tomato",
        "tulip", "tunnel", "turtle", "umbrella", "valley", "violin", "voyage", "wagon", "walnut", "whistle", "willow", "window",
        "winter",
    ]

    static let index: [String: UInt8] = Dictionary(uniqueKeysWithValues: list.enumerated().map { ($0.element, UInt8($0.offset)) })
}
