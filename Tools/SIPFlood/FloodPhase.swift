/// Where a run is: probing alone, flooding, or waiting for the last answers.
public enum FloodPhase: Int, CaseIterable, Sendable {
    case baseline, flood, after
}
