import ArgumentParser
import Model

/// `--event incoming|missed|answered-elsewhere` of `sipwake push test`.
enum PushEventArgument: String, ExpressibleByArgument, CaseIterable {
    case incoming
    case missed
    case answeredElsewhere = "answered-elsewhere"

    var event: PushEvent {
        switch self {
        case .incoming: .incomingCall
        case .missed: .missed
        case .answeredElsewhere: .answeredElsewhere
        }
    }
}
