import Foundation
import XCTest
import Server

/// `/roads` takes exactly four finite numbers for its box: a fifth value or one that does not parse is refused,
/// not dropped.
final class RoadsBoxTests: XCTestCase {
    func testBoxNeedsExactlyFourNumbers() throws {
        let (_, service) = try ServerFixture.monaco()
        XCTAssertEqual(try ask(service, "/roads?bbox=7.415,43.725,7.425,43.735").code, "Ok")
        for box in ["7.415,43.725,7.425,43.735,5", "7.415,43.725,7.425,43.735,x", "x,7.415,43.725,7.425,43.735", "7.415,43.725,7.425,nan",
                    "7.415,43.725,7.425,inf", "7.415,,43.725,7.425,43.735", "7.415,43.725,7.425"] {
            let answer = try ask(service, "/roads?bbox=\(box)")
            XCTAssertEqual(answer.status, 400, box)
            XCTAssertEqual(answer.code, "InvalidQuery", box)
        }
    }
}
