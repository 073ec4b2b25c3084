import Testing
@testable import Config

@Suite struct SyntaxErrorTests {
    @Test func malformedTOMLHasLineAndColumn() throws {
        let error = try #require(ConfigTestSupport.parseError("[sip]\nmax_message_size = = 5\n"))
        #expect(error.kind == .syntax)
        #expect(error.line == 2)
        #expect(error.column != nil)
        #expect(error.description.hasPrefix("\(ConfigTestSupport.file):2:"))
        #expect(error.description.contains("invalid TOML"))
    }

    @Test func unterminatedArrayReportsALine() throws {
        let error = try #require(ConfigTestSupport.parseError("[sip]\n\n\nlisten = [\"udp:127.0.0.1:5060\"\n"))
        #expect(error.kind == .syntax)
        #expect((error.line ?? 0) >= 4)
    }

    @Test func duplicateKeyIsASyntaxError() throws {
        let error = try #require(ConfigTestSupport.parseError("[log]\nlevel = \"info\"\nlevel = \"debug\"\n"))
        #expect(error.kind == .syntax)
        #expect(error.line == 3)
    }
}
