import CNcursesw
import Dashboard

/// Turns what `wget_wch` returns into ``KeyEvent``s.
enum KeyDecoder {
    /// A character (`OK` from `wget_wch`), with the control characters that are keys.
    static func character(_ value: UInt32) -> KeyEvent? {
        switch value {
        case 3: return .interrupt
        case 9: return .tab
        case 10, 13: return .enter
        case 27: return .escape
        case 8, 127: return .backspace
        case 0..<32: return nil
        default: return Unicode.Scalar(value).map { .character(Character($0)) }
        }
    }

    /// A function key (`KEY_CODE_YES` from `wget_wch`).
    static func functionKey(_ code: Int32) -> KeyEvent? {
        switch code {
        case KEY_UP: .up
        case KEY_DOWN: .down
        case KEY_LEFT: .left
        case KEY_RIGHT: .right
        case KEY_PPAGE: .pageUp
        case KEY_NPAGE: .pageDown
        case KEY_HOME: .home
        case KEY_END: .end
        case KEY_BTAB: .backTab
        case KEY_ENTER: .enter
        case KEY_BACKSPACE: .backspace
        default: nil
        }
    }
}
