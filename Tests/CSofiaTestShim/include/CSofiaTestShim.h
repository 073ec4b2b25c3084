/*
 * CSofiaTestShim: Sofia's user agent API (NUA) for the test phones only.
 *
 * Like CSofiaShim, it exposes the NUA tag types as plain functions and each
 * variadic NUA entry point taking a ready-built `tagi_t` list. Nothing in
 * the server links it: sipwake never acts as a user agent.
 */
#ifndef SIPWAKE_CSOFIATESTSHIM_H
#define SIPWAKE_CSOFIATESTSHIM_H
#include "CSofiaShim.h"
#include <sofia-sip/nua.h>
#include <sofia-sip/nua_tag.h>

tag_type_t swk_tag_nutag_url(void);
tag_type_t swk_tag_nutag_proxy(void);
tag_type_t swk_tag_nutag_registrar(void);
tag_type_t swk_tag_nutag_autoanswer(void);
tag_type_t swk_tag_nutag_autoack(void);
tag_type_t swk_tag_nutag_autoalert(void);
tag_type_t swk_tag_nutag_enablemessage(void);
tag_type_t swk_tag_nutag_media_enable(void);
tag_type_t swk_tag_nutag_m_username(void);
tag_type_t swk_tag_nutag_outbound(void);
tag_type_t swk_tag_nutag_keepalive(void);
tag_type_t swk_tag_nutag_auth(void);
tag_type_t swk_tag_nutag_user_agent(void);
tag_type_t swk_tag_nutag_retry_count(void);
tag_type_t swk_tag_siptag_proxy_authorization_str(void);

nua_t *swk_nua_create(su_root_t *root, nua_callback_f callback, nua_magic_t *magic,
                      tagi_t const *tags);
void swk_nua_set_params(nua_t *nua, tagi_t const *tags);
nua_handle_t *swk_nua_handle(nua_t *nua, nua_hmagic_t *hmagic, tagi_t const *tags);
void swk_nua_register(nua_handle_t *nh, tagi_t const *tags);
void swk_nua_invite(nua_handle_t *nh, tagi_t const *tags);
void swk_nua_respond(nua_handle_t *nh, int status, char const *phrase, tagi_t const *tags);
void swk_nua_cancel(nua_handle_t *nh, tagi_t const *tags);
void swk_nua_bye(nua_handle_t *nh, tagi_t const *tags);
void swk_nua_ack(nua_handle_t *nh, tagi_t const *tags);
void swk_nua_authenticate(nua_handle_t *nh, tagi_t const *tags);
void swk_nua_message(nua_handle_t *nh, tagi_t const *tags);

#endif
