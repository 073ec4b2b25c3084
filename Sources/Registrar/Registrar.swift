// Registrar module.
