#ifndef SIPWAKE_CLIBSSL_H
#define SIPWAKE_CLIBSSL_H
/* The system's OpenSSL (Debian's libssl-dev), for the attack tools' TLS client.
   Sofia-SIP links the same library on the server side. */
#include <openssl/ssl.h>
#include <openssl/err.h>
#endif
