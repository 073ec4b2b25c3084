// The call state machine is built here.
