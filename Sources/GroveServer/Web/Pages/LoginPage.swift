import Foundation
import GroveCore
import GroveStore
import HTTPTypes
import Hummingbird

struct LoginPage: Encodable {
    var title = "Log in"
    var bare = true
    var next: String
    var error: String?
}

/// What the login form posts (`application/x-www-form-urlencoded`, read by Hummingbird's decoder).
struct LoginForm: Decodable {
    var token: String?
    var next: String?
}
