import Foundation
import PushSink
import XCTest

/// Requests to a push sink by the real curl command, over HTTP/2 with TLS
/// (or HTTP/1.1 when asked), trusting the test CA.
struct SinkCurl {
    static let curl = "/usr/bin/curl"

    /// What curl got: the status, the HTTP version it spoke (`2`, `1.1`),
    /// the answer's header lines by lowercased name, and the body.
    struct Answer {
        let status: Int
        let httpVersion: String
        let headers: [String: String]
        let body: Data

        var object: [String: Any]? { SinkHTTP.object(body) }
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    let port: Int
    let caCertificate: String
    let directory: URL

    init(port: Int, keys: SinkTestKeys) throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: Self.curl), "curl not installed")
        self.port = port
        caCertificate = keys.caCertificate
        directory = keys.directory
    }

    var baseURL: String { "https://127.0.0.1:\(port)" }

    func request(_ path: String, method: String = "POST", headers: [String: String] = [:], body: String? = nil,
                 http1: Bool = false) throws -> Answer {
        let id = UUID().uuidString
        let headerFile = directory.appendingPathComponent("h-\(id)").path
        let bodyFile = directory.appendingPathComponent("b-\(id)").path
        defer {
            try? FileManager.default.removeItem(atPath: headerFile)
            try? FileManager.default.removeItem(atPath: bodyFile)
        }
        var arguments = ["-sS", http1 ? "--http1.1" : "--http2", "--cacert", caCertificate, "-X", method,
                         "-D", headerFile, "-o", bodyFile, "-w", "%{http_code} %{http_version}"]
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { arguments += ["-H", "\(name): \(value)"] }
        if let body {
            let requestFile = directory.appendingPathComponent("r-\(id)").path
            try body.write(toFile: requestFile, atomically: true, encoding: .utf8)
            arguments += ["--data-binary", "@\(requestFile)"]
        }
        arguments.append(baseURL + path)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.curl)
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let written = output.fileHandleForReading.readDataToEndOfFile()
        let problem = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw NSError(domain: "curl", code: Int(process.terminationStatus),
                          userInfo: [NSLocalizedDescriptionKey: String(decoding: problem, as: UTF8.self)])
        }
        let summary = String(decoding: written, as: UTF8.self).split(separator: " ")
        var answerHeaders: [String: String] = [:]
        let headerText = (try? String(contentsOfFile: headerFile, encoding: .utf8)) ?? ""
        for line in headerText.split(whereSeparator: \.isNewline) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            answerHeaders[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Answer(status: Int(summary.first ?? "") ?? 0, httpVersion: summary.count > 1 ? String(summary[1]) : "",
                      headers: answerHeaders, body: FileManager.default.contents(atPath: bodyFile) ?? Data())
    }

    /// The sink's records as `GET /records` gives them over HTTP/2: the
    /// decoded records and the JSON text.
    func records() throws -> (records: [PushSinkRecord], text: String) {
        let answer = try request("/records", method: "GET")
        XCTAssertEqual(answer.status, 200)
        return (try PushSinkRecord.jsonDecoder().decode([PushSinkRecord].self, from: answer.body), answer.text)
    }
}
