extension KeyEvent {
    /// `keys` with escape sequences the terminal library did not decode turned into their keys,
    /// or dropped.
    ///
    /// A terminal whose keys are not those of its `TERM` entry (tmux's End is `ESC [ 4 ~`, which
    /// xterm's entry spells `ESC O F`) hands the sequence over as Esc and characters; taken one
    /// by one, its `[` or `4` would act as keys. A sequence is Esc then `[` or `O` in the same
    /// read, then parameters (digits and `;`), then one final character.
    public static func collapsingEscapeSequences(_ keys: [KeyEvent]) -> [KeyEvent] {
        var result: [KeyEvent] = []
        var index = 0
        while index < keys.count {
            guard keys[index] == .escape, index + 1 < keys.count,
                case .character(let introducer) = keys[index + 1], introducer == "[" || introducer == "O"
            else {
                result.append(keys[index])
                index += 1
                continue
            }
            var parameters = ""
            var cursor = index + 2
            while cursor < keys.count, case .character(let character) = keys[cursor],
                character.isASCII, character.isNumber || character == ";"
            {
                parameters.append(character)
                cursor += 1
            }
            guard cursor < keys.count, case .character(let final) = keys[cursor] else {
                // Cut short: what there is stays as it came.
                result.append(keys[index])
                index += 1
                continue
            }
            if let key = decode(parameters: parameters, final: final) { result.append(key) }
            index = cursor + 1
        }
        return result
    }

    /// The key a complete sequence stands for; nil for one that is not a key here.
    private static func decode(parameters: String, final: Character) -> KeyEvent? {
        switch final {
        case "A": return .up
        case "B": return .down
        case "C": return .right
        case "D": return .left
        case "H": return .home
        case "F": return .end
        case "Z": return .backTab
        case "~":
            switch parameters.split(separator: ";").first {
            case "1", "7": return .home
            case "4", "8": return .end
            case "5": return .pageUp
            case "6": return .pageDown
            default: return nil
            }
        default: return nil
        }
    }
}
