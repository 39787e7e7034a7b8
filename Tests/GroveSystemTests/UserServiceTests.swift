import Foundation
import Testing

@testable import GroveSystem

@Suite("The user unit and the autostart entry")
struct UserServiceTests {
    @Test("ExecStart words: quoted when they need it, specifiers and variables kept literal")
    func quoting() {
        #expect(UserService.systemdQuote("/usr/bin/grove") == "/usr/bin/grove")
        #expect(UserService.systemdQuote("/home/a b/grove.sqlite") == #""/home/a b/grove.sqlite""#)
        #expect(UserService.systemdQuote("100%") == "100%%")
        #expect(UserService.systemdQuote("$HOME") == "$$HOME")
        #expect(UserService.systemdQuote(#"a"b\c"#) == #""a\"b\\c""#)
        #expect(UserService.systemdQuote("") == #""""#)
    }

    @Test("the unit runs grove serve, restarts it on failure, and starts with the session")
    func unit() {
        let text = UserService(grove: "/usr/bin/grove", arguments: ["serve", "--port", "4768"]).unitText
        #expect(text.contains("ExecStart=/usr/bin/grove serve --port 4768\n"))
        #expect(text.contains("Restart=on-failure\n"))
        // A removed package leaves the unit skipped, and the autostart entry ignored, not failing.
        #expect(text.contains("ConditionFileIsExecutable=/usr/bin/grove\n"))
        #expect(UserService(grove: "/usr/bin/grove", arguments: ["serve"]).autostartText.contains("TryExec=/usr/bin/grove\n"))
        #expect(text.contains("[Install]\nWantedBy=default.target\n"))
    }

    @Test("files go under XDG_CONFIG_HOME, else ~/.config")
    func places() {
        #expect(UserService.unitFile(environment: ["XDG_CONFIG_HOME": "/c"]).path == "/c/systemd/user/grove.service")
        #expect(
            UserService.autostartFile(environment: ["HOME": "/h", "XDG_CONFIG_HOME": "relative"]).path
                == "/h/.config/autostart/grove.desktop")
    }
}
