import Dashboard

extension FuzzTarget {
    /// A theme file and a dashboard `config.toml`, read as the dashboard reads them.
    static func theme(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        _ = try? Theme(toml: text, file: "fuzz.toml")
        _ = try? DashboardConfig(toml: text, file: "config.toml", options: ["mouse": true, "color": true])
    }
}
