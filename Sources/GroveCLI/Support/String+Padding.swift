import ArgumentParser
import Foundation
import GroveCore
import GroveStore

extension String {
    func leftPad(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
