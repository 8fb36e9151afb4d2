/// A screen the dashboard's loop draws on and reads keys from: ncurses in a real terminal
/// (`CursesTerminal`), or memory in a test (`MemoryTerminal`, which keeps every frame).
public protocol DashboardTerminal: AnyObject {
    /// The screen's size in cells.
    var size: (width: Int, height: Int) { get }
    /// The glyphs it can show (Unicode, or ASCII stand-ins).
    var glyphs: Glyphs { get }
    /// Uses `theme`'s colors from the next frame on.
    func setTheme(_ theme: Theme)
    /// Shows `grid`.
    func present(_ grid: CellGrid)
    /// Waits for input for up to `timeout` (nil: no limit), or until `wake` wakes it; returns the
    /// keys read and whether the screen changed size.
    func waitForInput(timeout: Duration?, wake: any LoopWake) -> (keys: [KeyEvent], resized: Bool)
    /// Gives the terminal back.
    func close()
}
