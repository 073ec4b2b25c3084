/// Identifies one branch (forked INVITE) within a call.
public typealias BranchID = Int

/// Identifies one push attempt within a call; a retry gets a new id.
public typealias PushID = Int
