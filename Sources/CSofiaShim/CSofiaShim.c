#define _GNU_SOURCE 1
#include <pthread.h>
#include "CSofiaShim.h"
#include <sofia-sip/sip_tag.h>
#include <sofia-sip/sip_header.h>
#include <sofia-sip/nta_tag.h>
#include <sofia-sip/tport_tag.h>
#include <sofia-sip/nta_stateless.h>

tag_type_t swk_tag_end(void) { return tag_null; }
tag_type_t swk_tag_siptag_header_str(void) { return siptag_header_str; }
tag_type_t swk_tag_siptag_contact_str(void) { return siptag_contact_str; }
tag_type_t swk_tag_siptag_from_str(void) { return siptag_from_str; }
tag_type_t swk_tag_siptag_to_str(void) { return siptag_to_str; }
tag_type_t swk_tag_siptag_call_id_str(void) { return siptag_call_id_str; }
tag_type_t swk_tag_siptag_cseq_str(void) { return siptag_cseq_str; }
tag_type_t swk_tag_siptag_expires_str(void) { return siptag_expires_str; }
tag_type_t swk_tag_siptag_payload_str(void) { return siptag_payload_str; }
tag_type_t swk_tag_siptag_content_type_str(void) { return siptag_content_type_str; }
tag_type_t swk_tag_siptag_user_agent_str(void) { return siptag_user_agent_str; }
tag_type_t swk_tag_siptag_server_str(void) { return siptag_server_str; }
tag_type_t swk_tag_siptag_via_str(void) { return siptag_via_str; }
tag_type_t swk_tag_siptag_route_str(void) { return siptag_route_str; }
tag_type_t swk_tag_siptag_request_str(void) { return siptag_request_str; }
tag_type_t swk_tag_siptag_max_forwards_str(void) { return siptag_max_forwards_str; }
tag_type_t swk_tag_siptag_authorization_str(void) { return siptag_authorization_str; }
tag_type_t swk_tag_siptag_reason_str(void) { return siptag_reason_str; }
tag_type_t swk_tag_siptag_record_route_str(void) { return siptag_record_route_str; }
tag_type_t swk_tag_ntatag_maxsize(void) { return ntatag_maxsize; }
tag_type_t swk_tag_ntatag_udp_mtu(void) { return ntatag_udp_mtu; }
tag_type_t swk_tag_ntatag_server_rport(void) { return ntatag_server_rport; }
tag_type_t swk_tag_ntatag_client_rport(void) { return ntatag_client_rport; }
tag_type_t swk_tag_ntatag_tcp_rport(void) { return ntatag_tcp_rport; }
tag_type_t swk_tag_ntatag_tls_rport(void) { return ntatag_tls_rport; }
tag_type_t swk_tag_ntatag_no_dialog(void) { return ntatag_no_dialog; }
tag_type_t swk_tag_ntatag_ua(void) { return ntatag_ua; }
tag_type_t swk_tag_ntatag_tport(void) { return ntatag_tport; }
tag_type_t swk_tag_ntatag_mclass(void) { return ntatag_mclass; }
tag_type_t swk_tag_ntatag_default_proxy(void) { return ntatag_default_proxy; }
tag_type_t swk_tag_ntatag_branch_key(void) { return ntatag_branch_key; }
tag_type_t swk_tag_ntatag_user_via(void) { return ntatag_user_via; }
tag_type_t swk_tag_ntatag_stateless(void) { return ntatag_stateless; }
tag_type_t swk_tag_ntatag_s_irq_hash_used_ref(void) { return ntatag_s_irq_hash_used_ref; }
tag_type_t swk_tag_tptag_pong2ping(void) { return tptag_pong2ping; }
tag_type_t swk_tag_tptag_certificate(void) { return tptag_certificate; }
tag_type_t swk_tag_tptag_idle(void) { return tptag_idle; }
tag_type_t swk_tag_tptag_timeout(void) { return tptag_timeout; }

nta_agent_t *swk_nta_agent_create(su_root_t *root, url_string_t const *name,
                                  nta_message_f *callback, nta_agent_magic_t *magic,
                                  tagi_t const *tags)
{ return nta_agent_create(root, name, callback, magic, TAG_NEXT(tags)); }

int swk_nta_agent_add_tport(nta_agent_t *agent, url_string_t const *name, tagi_t const *tags)
{ return nta_agent_add_tport(agent, name, TAG_NEXT(tags)); }

int swk_nta_agent_set_params(nta_agent_t *agent, tagi_t const *tags)
{ return nta_agent_set_params(agent, TAG_NEXT(tags)); }

int swk_nta_agent_get_stats(nta_agent_t *agent, tagi_t const *tags)
{ return nta_agent_get_stats(agent, TAG_NEXT(tags)); }

nta_leg_t *swk_nta_leg_tcreate(nta_agent_t *agent, nta_request_f *callback,
                               nta_leg_magic_t *magic, tagi_t const *tags)
{ return nta_leg_tcreate(agent, callback, magic, TAG_NEXT(tags)); }

int swk_nta_incoming_treply(nta_incoming_t *irq, int status, char const *phrase,
                            tagi_t const *tags)
{ return nta_incoming_treply(irq, status, phrase, TAG_NEXT(tags)); }

nta_outgoing_t *swk_nta_outgoing_tcreate(nta_leg_t *leg, nta_response_f *callback,
                                         nta_outgoing_magic_t *magic,
                                         url_string_t const *route_url,
                                         sip_method_t method, char const *method_name,
                                         url_string_t const *request_uri,
                                         tagi_t const *tags)
{ return nta_outgoing_tcreate(leg, callback, magic, route_url, method, method_name,
                              request_uri, TAG_NEXT(tags)); }

nta_outgoing_t *swk_nta_outgoing_mcreate(nta_agent_t *agent, nta_response_f *callback,
                                         nta_outgoing_magic_t *magic,
                                         url_string_t const *route_url, msg_t *msg,
                                         tagi_t const *tags)
{ return nta_outgoing_mcreate(agent, callback, magic, route_url, msg, TAG_NEXT(tags)); }

nta_outgoing_t *swk_nta_outgoing_tcancel(nta_outgoing_t *orq, nta_response_f *callback,
                                         nta_outgoing_magic_t *magic, tagi_t const *tags)
{ return nta_outgoing_tcancel(orq, callback, magic, TAG_NEXT(tags)); }

int swk_nta_msg_tsend(nta_agent_t *agent, msg_t *msg, url_string_t const *route_url,
                      tagi_t const *tags)
{ return nta_msg_tsend(agent, msg, route_url, TAG_NEXT(tags)); }

int swk_nta_msg_treply(nta_agent_t *agent, msg_t *msg, int status, char const *phrase,
                       tagi_t const *tags)
{ return nta_msg_treply(agent, msg, status, phrase, TAG_NEXT(tags)); }

nta_incoming_t *swk_nta_incoming_create(nta_agent_t *agent, nta_leg_t *leg, msg_t *msg, sip_t *sip,
                                        tagi_t const *tags)
{ return nta_incoming_create(agent, leg, msg, sip, TAG_NEXT(tags)); }

int swk_sip_add_tl(msg_t *msg, sip_t *sip, tagi_t const *tags)
{ return sip_add_tl(msg, sip, TAG_NEXT(tags)); }

su_log_t *swk_su_log_default(void) { return su_log_default; }
msg_hclass_t *swk_sip_route_class(void) { return sip_route_class; }
msg_hclass_t *swk_sip_record_route_class(void) { return sip_record_route_class; }
msg_hclass_t *swk_sip_request_class(void) { return sip_request_class; }

int swk_set_current_thread_name(char const *name) { return pthread_setname_np(pthread_self(), name); }

sip_t *swk_sip_object(msg_t *msg) { return sip_object(msg); }
url_string_t const *swk_url_string(char const *s) { return URL_STRING_MAKE(s); }
