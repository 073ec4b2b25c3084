import ArgumentParser
import Ports

/// `sipwake users hold USER on|off`: the user's wake-up hold. On (the
/// default), a call pushes the user's devices and waits up to
/// `calls.wake_window` for them to register; off, it rings the registered
/// contacts only and fails fast.
struct UsersHoldCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hold",
        abstract: "Turn a user's wake-up hold (pushes, and waiting for the phone to wake) on or off.")

    enum Setting: String, ExpressibleByArgument, CaseIterable {
        case on, off
    }

    @OptionGroup var options: ConfigOption
    @Argument var user: String
    @Argument(help: "on or off") var setting: Setting

    func run() throws {
        let config = try options.load()
        let database = try DatabaseAccess.open(config)
        defer { try? database.close() }
        try CLIStorage.run {
            try database.stores.users.setWakeupHold(username: user.lowercased(), setting == .on)
        }
        print("wake-up hold \(setting.rawValue) for \(user.lowercased())")
    }
}
