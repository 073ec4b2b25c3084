#define _GNU_SOURCE 1
#include "CSofiaTestShim.h"
#include <sofia-sip/sip_tag.h>
#include <sofia-sip/nta_tag.h>

tag_type_t swk_tag_nutag_url(void) { return nutag_url; }
tag_type_t swk_tag_nutag_proxy(void) { return ntatag_default_proxy; }
tag_type_t swk_tag_nutag_registrar(void) { return nutag_registrar; }
tag_type_t swk_tag_nutag_autoanswer(void) { return nutag_autoanswer; }
tag_type_t swk_tag_nutag_autoack(void) { return nutag_autoack; }
tag_type_t swk_tag_nutag_autoalert(void) { return nutag_autoalert; }
tag_type_t swk_tag_nutag_enablemessage(void) { return nutag_enablemessage; }
tag_type_t swk_tag_nutag_media_enable(void) { return nutag_media_enable; }
tag_type_t swk_tag_nutag_m_username(void) { return nutag_m_username; }
tag_type_t swk_tag_nutag_outbound(void) { return nutag_outbound; }
tag_type_t swk_tag_nutag_keepalive(void) { return nutag_keepalive; }
tag_type_t swk_tag_nutag_auth(void) { return nutag_auth; }
tag_type_t swk_tag_nutag_user_agent(void) { return nutag_user_agent; }
tag_type_t swk_tag_nutag_retry_count(void) { return nutag_retry_count; }
tag_type_t swk_tag_siptag_proxy_authorization_str(void) { return siptag_proxy_authorization_str; }

nua_t *swk_nua_create(su_root_t *root, nua_callback_f callback, nua_magic_t *magic,
                      tagi_t const *tags)
{ return nua_create(root, callback, magic, TAG_NEXT(tags)); }

void swk_nua_set_params(nua_t *nua, tagi_t const *tags) { nua_set_params(nua, TAG_NEXT(tags)); }
nua_handle_t *swk_nua_handle(nua_t *nua, nua_hmagic_t *hmagic, tagi_t const *tags)
{ return nua_handle(nua, hmagic, TAG_NEXT(tags)); }
void swk_nua_register(nua_handle_t *nh, tagi_t const *tags) { nua_register(nh, TAG_NEXT(tags)); }
void swk_nua_invite(nua_handle_t *nh, tagi_t const *tags) { nua_invite(nh, TAG_NEXT(tags)); }
void swk_nua_respond(nua_handle_t *nh, int status, char const *phrase, tagi_t const *tags)
{ nua_respond(nh, status, phrase, TAG_NEXT(tags)); }
void swk_nua_cancel(nua_handle_t *nh, tagi_t const *tags) { nua_cancel(nh, TAG_NEXT(tags)); }
void swk_nua_bye(nua_handle_t *nh, tagi_t const *tags) { nua_bye(nh, TAG_NEXT(tags)); }
void swk_nua_ack(nua_handle_t *nh, tagi_t const *tags) { nua_ack(nh, TAG_NEXT(tags)); }
void swk_nua_authenticate(nua_handle_t *nh, tagi_t const *tags) { nua_authenticate(nh, TAG_NEXT(tags)); }
void swk_nua_message(nua_handle_t *nh, tagi_t const *tags) { nua_message(nh, TAG_NEXT(tags)); }
