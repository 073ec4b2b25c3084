/*
 * CSofiaShim: the parts of Sofia-SIP that Swift cannot call directly.
 *
 * Sofia's public API takes variadic tag lists (`tag, value, ..., TAG_END()`)
 * and names its tags through macros over global arrays. Swift can call
 * neither, so this target exposes:
 *   - the tag types as plain functions returning `tag_type_t`;
 *   - each variadic entry point we use, taking a ready-built `tagi_t` list
 *     (passed on with TAG_NEXT).
 * Every function is one line that forwards its arguments. Meaning, checks
 * and error handling live in Swift (SIPCore).
 */
#ifndef SIPWAKE_CSOFIASHIM_H
#define SIPWAKE_CSOFIASHIM_H
/* System headers first, before Sofia's su_configure.h defines _GNU_SOURCE,
   so their definitions match the ones Swift's Glibc module sees. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/ioctl.h>
#include <sys/time.h>
#include <poll.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <netdb.h>

#include <sofia-sip/su.h>
#include <sofia-sip/su_wait.h>
#include <sofia-sip/su_tag.h>
#include <sofia-sip/nta.h>
#include <sofia-sip/nta_tport.h>
#include <sofia-sip/tport.h>
#include <sofia-sip/sip.h>
#include <sofia-sip/url.h>
#include <sofia-sip/msg_addr.h>
#include <sofia-sip/msg_mclass.h>
#include <sofia-sip/su_log.h>

/* Tag types. */
tag_type_t swk_tag_end(void);
tag_type_t swk_tag_siptag_header_str(void);
tag_type_t swk_tag_siptag_contact_str(void);
tag_type_t swk_tag_siptag_from_str(void);
tag_type_t swk_tag_siptag_to_str(void);
tag_type_t swk_tag_siptag_call_id_str(void);
tag_type_t swk_tag_siptag_cseq_str(void);
tag_type_t swk_tag_siptag_expires_str(void);
tag_type_t swk_tag_siptag_payload_str(void);
tag_type_t swk_tag_siptag_content_type_str(void);
tag_type_t swk_tag_siptag_user_agent_str(void);
tag_type_t swk_tag_siptag_server_str(void);
tag_type_t swk_tag_siptag_via_str(void);
tag_type_t swk_tag_siptag_route_str(void);
tag_type_t swk_tag_siptag_request_str(void);
tag_type_t swk_tag_siptag_max_forwards_str(void);
tag_type_t swk_tag_siptag_authorization_str(void);
tag_type_t swk_tag_siptag_reason_str(void);
tag_type_t swk_tag_siptag_record_route_str(void);
tag_type_t swk_tag_ntatag_maxsize(void);
tag_type_t swk_tag_ntatag_udp_mtu(void);
tag_type_t swk_tag_ntatag_server_rport(void);
tag_type_t swk_tag_ntatag_client_rport(void);
tag_type_t swk_tag_ntatag_tcp_rport(void);
tag_type_t swk_tag_ntatag_tls_rport(void);
tag_type_t swk_tag_ntatag_no_dialog(void);
tag_type_t swk_tag_ntatag_ua(void);
tag_type_t swk_tag_ntatag_tport(void);
tag_type_t swk_tag_ntatag_mclass(void);
tag_type_t swk_tag_ntatag_default_proxy(void);
tag_type_t swk_tag_ntatag_branch_key(void);
tag_type_t swk_tag_ntatag_user_via(void);
tag_type_t swk_tag_ntatag_stateless(void);
tag_type_t swk_tag_ntatag_s_irq_hash_used_ref(void);
tag_type_t swk_tag_tptag_pong2ping(void);
tag_type_t swk_tag_tptag_certificate(void);
tag_type_t swk_tag_tptag_idle(void);
tag_type_t swk_tag_tptag_timeout(void);

/* Variadic entry points, taking a tag list. */
nta_agent_t *swk_nta_agent_create(su_root_t *root, url_string_t const *name,
                                  nta_message_f *callback, nta_agent_magic_t *magic,
                                  tagi_t const *tags);
int swk_nta_agent_add_tport(nta_agent_t *agent, url_string_t const *name, tagi_t const *tags);
int swk_nta_agent_set_params(nta_agent_t *agent, tagi_t const *tags);
int swk_nta_agent_get_stats(nta_agent_t *agent, tagi_t const *tags);
nta_leg_t *swk_nta_leg_tcreate(nta_agent_t *agent, nta_request_f *callback,
                               nta_leg_magic_t *magic, tagi_t const *tags);
int swk_nta_incoming_treply(nta_incoming_t *irq, int status, char const *phrase,
                            tagi_t const *tags);
nta_outgoing_t *swk_nta_outgoing_tcreate(nta_leg_t *leg, nta_response_f *callback,
                                         nta_outgoing_magic_t *magic,
                                         url_string_t const *route_url,
                                         sip_method_t method, char const *method_name,
                                         url_string_t const *request_uri,
                                         tagi_t const *tags);
nta_outgoing_t *swk_nta_outgoing_mcreate(nta_agent_t *agent, nta_response_f *callback,
                                         nta_outgoing_magic_t *magic,
                                         url_string_t const *route_url, msg_t *msg,
                                         tagi_t const *tags);

nta_outgoing_t *swk_nta_outgoing_tcancel(nta_outgoing_t *orq, nta_response_f *callback,
                                         nta_outgoing_magic_t *magic, tagi_t const *tags);
int swk_nta_msg_tsend(nta_agent_t *agent, msg_t *msg, url_string_t const *route_url,
                      tagi_t const *tags);
int swk_nta_msg_treply(nta_agent_t *agent, msg_t *msg, int status, char const *phrase,
                       tagi_t const *tags);
nta_incoming_t *swk_nta_incoming_create(nta_agent_t *agent, nta_leg_t *leg, msg_t *msg, sip_t *sip,
                                        tagi_t const *tags);

int swk_sip_add_tl(msg_t *msg, sip_t *sip, tagi_t const *tags);

/* Globals declared as incomplete arrays. */
su_log_t *swk_su_log_default(void);
msg_hclass_t *swk_sip_route_class(void);
msg_hclass_t *swk_sip_record_route_class(void);
msg_hclass_t *swk_sip_request_class(void);

/* pthread_setname_np needs _GNU_SOURCE, which Swift's Glibc module does not
   define: names the calling thread (15 bytes at most). */
int swk_set_current_thread_name(char const *name);

/* Macros. */
sip_t *swk_sip_object(msg_t *msg);
url_string_t const *swk_url_string(char const *s);

#endif
