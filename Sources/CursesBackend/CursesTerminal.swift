import CNcursesw
import Dashboard
import RTDBCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The terminal, through ncursesw: draws a ``CellGrid`` in a ``Theme`` and reads keys.
///
/// Not thread-safe: ncurses is not, so one thread (the dashboard's loop) owns it.
public final class CursesTerminal: DashboardTerminal {
    /// The colours the terminal shows (monochrome with `NO_COLOR`).
    public let capability: ColorCapability
    /// Unicode glyphs when the locale is UTF-8, else ASCII.
    public let glyphs: Glyphs
    private let screen: UnsafeMutablePointer<WINDOW>
    private var palette: CursesPalette
    private var isOpen = true
    /// What is on the screen now: only the cells that differ from it are written again.
    private var presented: CellGrid?

    /// Takes over the terminal: the alternate screen, no echo, keys one at a time, hidden cursor,
    /// mouse clicks where the terminal reports them.
    ///
    /// - Parameter environment: Where `NO_COLOR` and `TERM` are read (``ColorPolicy``).
    public init(theme: Theme, environment: [String: String]) {
        setlocale(LC_ALL, "")
        glyphs = CNcurses_locale_is_utf8() != 0 ? .unicode : .ascii
        CrashGuard.install()
        StderrCapture.begin()
        screen = initscr()
        cbreak()
        noecho()
        keypad(screen, true)
        curs_set(0)
        CNcurses_set_escdelay(25)
        nodelay(screen, true)
        mousemask(
            CNcurses_BUTTON1_PRESSED() | CNcurses_BUTTON1_CLICKED() | CNcurses_BUTTON4_PRESSED()
                | CNcurses_BUTTON5_PRESSED(), nil)
        mouseinterval(0)
        var capability = ColorCapability.monochrome
        if ColorPolicy.allowsColor(environment: environment) && has_colors() {
            start_color()
            use_default_colors()
            capability = ColorPolicy.capability(
                environment: environment, colors: Int(CNcurses_COLORS()), hasRGB: tigetflag("RGB") > 0)
        }
        self.capability = capability
        palette = CursesPalette(theme: theme, capability: capability, pairLimit: Int(CNcurses_COLOR_PAIRS()))
    }

    deinit { close() }

    /// The terminal's size now.
    public var size: (width: Int, height: Int) { (Int(getmaxx(screen)), Int(getmaxy(screen))) }

    /// Uses another theme from the next frame on.
    public func setTheme(_ theme: Theme) {
        palette = CursesPalette(theme: theme, capability: capability, pairLimit: Int(CNcurses_COLOR_PAIRS()))
        presented = nil  // every cell's colours change
    }

    /// Draws a frame.
    ///
    /// ncurses sends only what changed since the last one.
    ///
    /// Only the cells that changed since the last frame are handed to ncurses: an idle frame
    /// (a clock that ticked) touches a few dozen of the thousands.
    public func present(_ grid: CellGrid) {
        let (width, height) = size
        var previous = presented
        if previous.map({ $0.width != grid.width || $0.height != grid.height }) ?? true {
            werase(screen)
            previous = nil
        }
        presented = grid
        var cell = cchar_t()
        var joined: [(x: Int, y: Int, text: String)] = []
        for y in 0..<min(height, grid.height) {
            for x in 0..<min(width, grid.width) {
                let item = grid[x, y]
                if item.isContinuation { continue }
                var drawn = Self.drawable(item.character)
                if drawn.count < item.character.unicodeScalars.count, drawn.count < 5 {
                    joined.append((x, y, String(item.character)))
                }
                // The cell after this one's columns: an isolate it opens is sent after this cell.
                let next = x + (x + 1 < grid.width && grid[x + 1, y].isContinuation ? 2 : 1)
                // A wide character's continuation, or the cell after, changed: the cell is redrawn.
                if let previous, previous[x, y] == item,
                    (x + 1..<min(next + 1, grid.width)).allSatisfy({ previous[$0, y] == grid[$0, y] })
                {
                    continue
                }
                // Right-to-left runs' isolates, as zero-width marks after a cell's character.
                if item.isolation.contains(.closes), drawn.count < 5 { drawn.append(0x2069) }
                if next < grid.width, grid[next, y].isolation.contains(.opens), drawn.count < 5 {
                    drawn.append(0x2068)
                }
                let (attributes, pair) = palette.attributes(for: item.role)
                var pairNumber = pair
                (drawn + [0]).withUnsafeBufferPointer { text in
                    _ = setcchar(&cell, text.baseAddress, attributes, 0, &pairNumber)
                }
                mvwadd_wch(screen, Int32(y), Int32(x), &cell)
            }
        }
        if let cursor = grid.cursor { wmove(screen, Int32(cursor.y), Int32(cursor.x)) }
        wnoutrefresh(screen)
        doupdate()
        Self.overwrite(joined)
    }

    /// What ncurses can keep of a cell's piece of a cluster (CellGrid.pieces).
    ///
    /// The scalar that moves the cursor and the zero-width ones after it, up to a zero-width
    /// joiner, as many as a `cchar_t` takes (CCHARW_MAX). ncurses keeps one spacing character a cell, so an emoji
    /// joined after a ZWJ (`👩‍💻`) cannot be one of its cells, and a ZWJ left at a cell's end
    /// would join whatever the terminal is sent next.
    private static func drawable(_ character: Character) -> [wchar_t] {
        var scalars: [wchar_t] = []
        for scalar in character.unicodeScalars {
            if scalar == "\u{200D}" || scalars.count == 5 { break }
            scalars.append(wchar_t(bitPattern: scalar.value))
        }
        return scalars
    }

    /// Writes the joined emoji sequences whole over the cells ncurses drew with their first
    /// emoji, straight to the terminal after ncurses' update, and puts the cursor back: the
    /// terminal gives the sequence the two columns ncurses counted for its first emoji.
    private static func overwrite(_ cells: [(x: Int, y: Int, text: String)]) {
        guard !cells.isEmpty else { return }
        // DECSC/DECRC keep ncurses' cursor where it left it.
        var text = "\u{1B}7"
        for cell in cells { text += "\u{1B}[\(cell.y + 1);\(cell.x + 1)H" + cell.text }
        text += "\u{1B}8"
        // ncurses has flushed its own output in doupdate(): these bytes follow it.
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }

    /// Waits until a key, a wake, a resize, or `timeout` (nil: no limit), and returns the keys
    /// read and whether the terminal was resized.
    public func waitForInput(timeout: Duration?, wake: any LoopWake) -> (keys: [KeyEvent], resized: Bool) {
        // SIGWINCH interrupts the wait; ncurses then reports KEY_RESIZE from the next read, so the
        // keys are read whatever woke the wait (the reads do not block). poll(2) waits in ms.
        let milliseconds = timeout.map { Int32(clamping: max(0, $0.wholeMilliseconds)) } ?? -1
        _ = CNcurses_wait(STDIN_FILENO, wake.descriptor, milliseconds)
        return readKeys()
    }

    /// Reads every key ncurses has (a resize shows up here as well).
    public func readKeys() -> (keys: [KeyEvent], resized: Bool) {
        var keys: [KeyEvent] = []
        var resized = false
        var value: wint_t = 0
        while true {
            let result = wget_wch(screen, &value)
            if result == ERR { break }
            if result == KEY_CODE_YES {
                if Int32(value) == KEY_RESIZE {
                    resized = true
                } else if Int32(value) == KEY_MOUSE {
                    keys += mouseEvents()
                } else if let key = KeyDecoder.functionKey(Int32(value)) {
                    keys.append(key)
                }
            } else if let key = KeyDecoder.character(UInt32(value)) {
                keys.append(key)
            }
        }
        return (KeyEvent.collapsingEscapeSequences(keys), resized)
    }

    /// Every mouse event ncurses holds, oldest first.
    ///
    /// One `KEY_MOUSE` can stand for several: when a key follows a press and its release at once,
    /// ncurses queues both without merging them into a click, and `getmouse` hands them out newest
    /// first. Reading only one kept the release and lost the press (the click).
    private func mouseEvents() -> [KeyEvent] {
        var events: [MEVENT] = []
        var event = MEVENT()
        while getmouse(&event) == OK { events.append(event) }
        return events.reversed().compactMap { event in
            if event.bstate & CNcurses_BUTTON4_PRESSED() != 0 { return .wheelUp }
            if event.bstate & CNcurses_BUTTON5_PRESSED() != 0 { return .wheelDown }
            if event.bstate & (CNcurses_BUTTON1_PRESSED() | CNcurses_BUTTON1_CLICKED()) != 0 {
                return .click(x: Int(event.x), y: Int(event.y))
            }
            return nil
        }
    }

    /// Gives the terminal back: the normal screen, echo, the cursor.
    public func close() {
        guard isOpen else { return }
        isOpen = false
        curs_set(1)
        endwin()
        StderrCapture.restore()
    }
}
