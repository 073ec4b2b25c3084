// Config module.
