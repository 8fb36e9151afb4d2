import TOMLKit
import WatchModel

extension Theme {
    /// Reads a theme file's text; every role it names overrides `base` (the built-in default).
    ///
    /// - Throws: ``ThemeError`` naming the file, the line and the problem: TOML that does not
    ///   parse, an unknown key or role, a colour that is none of `default`, an ANSI name or
    ///   `#RRGGBB`, an attribute that is not true or false.
    public init(toml text: String, file: String, base: Theme = .builtIn) throws(ThemeError) {
        let (table, places): (TOMLTable, TOMLPlaces)
        do {
            (table, places) = try TOMLText.table(text)
        } catch {
            throw ThemeError(file: file, line: error.line, column: error.column, problem: error.problem)
        }
        func fail(_ key: String, in section: String? = nil, _ problem: String) -> ThemeError {
            ThemeError(
                file: file, line: places.line(of: key, in: section.map { TOMLPlaces.Table($0) }), problem: problem)
        }
        var theme = base
        for (key, value) in table {
            switch key {
            case "name":
                guard let name = value.string else { throw fail(key, "'name' must be a string") }
                theme.name = name
            case "description":
                guard value.string != nil else { throw fail(key, "'description' must be a string") }
            case "roles":
                guard let roles = value.table else { throw fail(key, "'roles' must be a table") }
                for (roleName, roleValue) in roles {
                    guard let role = StyleRole(rawValue: roleName) else {
                        let known = StyleRole.allCases.map(\.rawValue).joined(separator: ", ")
                        throw fail(roleName, in: "roles", "unknown role '\(roleName)' (roles: \(known))")
                    }
                    do {
                        theme.styles[role] = try Self.style(roleValue)
                    } catch {
                        throw fail(roleName, in: "roles", "role '\(roleName)': \(error.problem)")
                    }
                }
            default:
                throw fail(key, "unknown key '\(key)' (expected name, description and a [roles] table)")
            }
        }
        self = theme
    }

    private static func style(_ value: any TOMLValueConvertible) throws(ThemeError) -> Style {
        if let text = value.string { return Style(foreground: try color(text)) }
        guard let table = value.table else {
            throw ThemeError(
                file: "", problem: "expected a colour or a table such as { fg = \"#88c0d0\", bold = true }")
        }
        var style = Style()
        for (key, item) in table {
            switch key {
            case "fg", "foreground":
                guard let text = item.string else { throw ThemeError(file: "", problem: "'\(key)' must be a string") }
                style.foreground = try color(text)
            case "bg", "background":
                guard let text = item.string else { throw ThemeError(file: "", problem: "'\(key)' must be a string") }
                style.background = try color(text)
            case "bold", "dim", "underline", "reverse":
                guard let flag = item.bool else {
                    throw ThemeError(file: "", problem: "'\(key)' must be true or false")
                }
                switch key {
                case "bold": style.bold = flag
                case "dim": style.dim = flag
                case "underline": style.underline = flag
                default: style.reverse = flag
                }
            default:
                throw ThemeError(
                    file: "", problem: "unknown attribute '\(key)' (fg, bg, bold, dim, underline, reverse)")
            }
        }
        return style
    }

    private static func color(_ text: String) throws(ThemeError) -> ThemeColor {
        guard let color = ThemeColor(parsing: text) else {
            throw ThemeError(
                file: "", problem: "'\(text)' is not a colour (use default, an ANSI name such as red, or #RRGGBB)")
        }
        return color
    }
}
