// SIPCore module.
