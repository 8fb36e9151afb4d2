/// A theme: a style for every ``StyleRole``.
///
/// The code speaks of roles, never of colours.
public struct Theme: Sendable, Equatable {
    /// The theme's name.
    public var name: String
    /// The style of each role; a role missing here is plain text.
    public var styles: [StyleRole: Style]

    /// Makes a theme.
    public init(name: String, styles: [StyleRole: Style]) {
        self.name = name
        self.styles = styles
    }

    /// The style of a role.
    public subscript(role: StyleRole) -> Style { styles[role] ?? Style() }

    /// The theme with colours removed and attributes kept (`NO_COLOR`, monochrome terminals):
    /// meaning never rides on colour alone, so nothing is lost.
    public var withoutColors: Theme {
        Theme(name: name, styles: styles.mapValues(\.withoutColors))
    }

    /// The built-in default (the same text as `themes/default.toml`; a test keeps them equal).
    public static let builtIn: Theme = {
        do {
            return try Theme(
                toml: BuiltInTheme.defaultTOML, file: "built-in default", base: Theme(name: "", styles: [:]))
        } catch {
            // The text is a constant that a test parses: it cannot fail at run time.
            preconditionFailure("the built-in theme does not parse: \(error)")
        }
    }()
}
