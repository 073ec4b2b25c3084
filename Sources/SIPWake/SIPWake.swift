// SIPWake module.
