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
