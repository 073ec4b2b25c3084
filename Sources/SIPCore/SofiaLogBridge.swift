import CSofiaSIP
import CSofiaShim
import Glibc
import Logging

/// Sends Sofia-SIP's own diagnostics (which it would print to stderr) to a
/// swift-log logger at debug level, so they follow the configured level and
/// format. Installed once by the executable, like `LoggingSystem.bootstrap`.
public enum SofiaLogBridge {
    final class Sink {
        let logger: Logger
        init(logger: Logger) { self.logger = logger }
    }

    public static func install(logger: Logger) {
        // Retained for the life of the process: Sofia keeps the pointer.
        let sink = Unmanaged.passRetained(Sink(logger: logger)).toOpaque()
        su_log_redirect(swk_su_log_default(), { stream, format, arguments in
            guard let stream, let format, let arguments else { return }
            var buffer = [CChar](repeating: 0, count: 1024)
            _ = vsnprintf(&buffer, buffer.count, format, arguments)
            let text = String(cString: buffer).trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty else { return }
            let sink = Unmanaged<Sink>.fromOpaque(stream).takeUnretainedValue()
            sink.logger.debug("sofia", metadata: ["sofia.message": "\(text)"])
        }, sink)
    }
}

import Foundation
