import Dashboard
import Foundation
import Testing

@Suite struct ThemeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let themes = root.appendingPathComponent("themes")
    static let invalid = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/themes-invalid")

    @Test func everyShippedThemeLoadsAndStylesEveryRole() throws {
        let catalog = ThemeCatalog(directories: [Self.themes])
        #expect(Set(["default", "light", "mono"]).isSubset(of: catalog.names))
        #expect(catalog.names.count >= 4)
        for name in catalog.names {
            let (theme, error) = catalog.load(name)
            #expect(error == nil, "\(name): \(error.map(String.init(describing:)) ?? "")")
            #expect(theme.name == name)
            let file = try String(contentsOf: Self.themes.appendingPathComponent("\(name).toml"), encoding: .utf8)
            let own = try Theme(toml: file, file: name, base: Theme(name: "", styles: [:]))
            #expect(Set(own.styles.keys) == Set(StyleRole.allCases), "\(name) names every role")
        }
    }

    @Test func theCompiledInDefaultIsThemesDefaultToml() throws {
        let file = try String(contentsOf: Self.themes.appendingPathComponent("default.toml"), encoding: .utf8)
        #expect(try Theme(toml: file, file: "default.toml") == Theme.builtIn)
        #expect(ThemeCatalog(directories: []).load("default").theme == Theme.builtIn)
    }

    @Test func monoHasNoColours() {
        let (mono, _) = ThemeCatalog(directories: [Self.themes]).load("mono")
        for role in StyleRole.allCases {
            #expect(mono[role].foreground == .terminalDefault && mono[role].background == .terminalDefault)
        }
        #expect(mono[.selected].reverse)
    }

    /// Each invalid fixture's first line says what its error must contain: `# expect: LINE: TEXT`.
    @Test func invalidThemesNameFileLineAndProblemAndFallBack() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.invalid.path).filter {
            $0.hasSuffix(".toml")
        }
        #expect(files.count >= 5)
        for name in files.sorted() {
            let url = Self.invalid.appendingPathComponent(name)
            let text = try String(contentsOf: url, encoding: .utf8)
            let header = text.split(separator: "\n")[0].replacingOccurrences(of: "# expect: ", with: "")
            let parts = header.split(separator: ":", maxSplits: 1)
            let line = Int(parts[0])
            let problem = parts[1].trimmingCharacters(in: .whitespaces)
            let (theme, error) = ThemeCatalog(directories: []).load(url.path)
            #expect(theme == Theme.builtIn, "\(name) falls back to the default")
            let found = try #require(error, "\(name) must fail")
            #expect(found.file == url.path)
            #expect(found.line == line, "\(name): \(found)")
            #expect(found.description.contains(problem), "\(name): \(found)")
            #expect(found.description.hasPrefix("\(url.path):\(line ?? 0)"), "\(found)")
        }
    }

    @Test func anUnknownThemeNameListsTheThemes() {
        let (theme, error) = ThemeCatalog(directories: [Self.themes]).load("neon")
        #expect(theme == .builtIn)
        #expect(error?.description.contains("no such theme (themes: default, ") == true, "\(String(describing: error))")
    }

    @Test func noColorAndDumbTerminalsMeanMonochrome() {
        #expect(ColorPolicy.capability(environment: ["NO_COLOR": "1"], colors: 256, hasRGB: false) == .monochrome)
        #expect(ColorPolicy.capability(environment: ["NO_COLOR": ""], colors: 256, hasRGB: false) == .palette256)
        #expect(ColorPolicy.capability(environment: ["TERM": "dumb"], colors: 256, hasRGB: false) == .monochrome)
        #expect(ColorPolicy.capability(environment: [:], colors: 0, hasRGB: false) == .monochrome)
        #expect(ColorPolicy.capability(environment: [:], colors: 8, hasRGB: false) == .ansi8)
        #expect(ColorPolicy.capability(environment: [:], colors: 16, hasRGB: false) == .ansi16)
        #expect(ColorPolicy.capability(environment: [:], colors: 1 << 24, hasRGB: true) == .direct)
        #expect(ColorPolicy.capability(environment: [:], colors: 1 << 24, hasRGB: false) == .palette256)
        let style = Theme.builtIn[.borderFocused]
        #expect(ColorLadder.terminalColor(style.foreground, capability: .monochrome) == nil)
        #expect(Theme.builtIn.withoutColors[.borderFocused].bold, "attributes survive without colour")
    }

    @Test func hexMapsDownTheLadder() {
        let orange = ThemeColor.rgb(red: 0xFF, green: 0xB8, blue: 0x6C)
        #expect(ColorLadder.terminalColor(orange, capability: .direct) == .rgb(0xFFB86C))
        #expect(ColorLadder.terminalColor(orange, capability: .palette256) == .index(222))
        #expect(
            ColorLadder.terminalColor(.rgb(red: 0x80, green: 0x80, blue: 0x80), capability: .palette256) == .index(244))
        #expect(ColorLadder.terminalColor(.rgb(red: 0xCC, green: 0x10, blue: 0x10), capability: .ansi16) == .index(1))
        #expect(ColorLadder.terminalColor(.rgb(red: 0xFF, green: 0x20, blue: 0x20), capability: .ansi16) == .index(9))
        #expect(ColorLadder.terminalColor(.rgb(red: 0, green: 0, blue: 0), capability: .direct) == .rgb(0x010101))
        #expect(ColorLadder.terminalColor(.ansi(9), capability: .ansi8) == .index(1))
        #expect(ColorLadder.terminalColor(.terminalDefault, capability: .palette256) == .terminalDefault)
    }
}
