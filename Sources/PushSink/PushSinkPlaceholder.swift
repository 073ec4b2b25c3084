// The push sink is built here.
