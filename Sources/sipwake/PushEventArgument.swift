import ArgumentParser
import Model

/// `--event incoming|missed|answered-elsewhere|binding-refresh` of `sipwake push test`.
enum PushEventArgument: String, ExpressibleByArgument, CaseIterable {
    case incoming
    case missed
    case answeredElsewhere = "answered-elsewhere"
    case bindingRefresh = "binding-refresh"

    var event: PushEvent {
        switch self {
        case .incoming: .incomingCall
        case .missed: .missed
        case .answeredElsewhere: .answeredElsewhere
        case .bindingRefresh: .bindingRefresh
        }
    }
}
