import ArgumentParser
import BuildInfo

@main
struct SipwakeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sipwake",
        abstract: "SIP registrar and push-paired forking proxy for mobile softphones.",
        version: "sipwake \(SipwakeVersion.description)",
        subcommands: [
            ServeCommand.self, ConfigCommand.self, UsersCommand.self, RegistrationsCommand.self, TuplesCommand.self,
            CallsCommand.self,
            PushCommand.self, PushSinkCommand.self,
        ])
}
