import XCTest
final class RegistrarTestsPlaceholder: XCTestCase { func testNothing() {} }
