// Connection caps (docs/SERVER.md, "Hostile clients"): connections open at once per client
// address and in all, counting libmicrohttpd's connections and the live streams detached from
// it (whose sockets the server owns), which libmicrohttpd's own limits cannot see.
#include "framing.h"
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

/// The bytes that identify a client address (the IP alone, not the port).
static void address_key(const struct sockaddr *address, int *family, uint32_t *length, unsigned char key[16]) {
    *family = address == NULL ? AF_UNSPEC : address->sa_family;
    *length = 0;
    if (*family == AF_INET) {
        memcpy(key, &((const struct sockaddr_in *) address)->sin_addr, 4);
        *length = 4;
    } else if (*family == AF_INET6) {
        memcpy(key, &((const struct sockaddr_in6 *) address)->sin6_addr, 16);
        *length = 16;
    }
}

static size_t bucket_of(int family, uint32_t length, const unsigned char *key) {
    uint32_t hash = 2166136261u ^ (uint32_t) family;
    for (uint32_t i = 0; i < length; i++) hash = (hash ^ key[i]) * 16777619u;
    return hash % CAPS_BUCKETS;
}

/// The entry for an address, or NULL; under `caps_lock`.
static struct CMicroHTTPD_AddressCount *find(struct CMicroHTTPD_Guard *guard, int family, uint32_t length,
                                             const unsigned char *key) {
    for (struct CMicroHTTPD_AddressCount *entry = guard->buckets[bucket_of(family, length, key)]; entry; entry = entry->next) {
        if (entry->family == family && entry->length == length && memcmp(entry->address, key, length) == 0) return entry;
    }
    return NULL;
}

struct CMicroHTTPD_AddressCount *caps_acquire(struct CMicroHTTPD_Guard *guard, const struct sockaddr *address) {
    int family;
    uint32_t length;
    unsigned char key[16];
    address_key(address, &family, &length, key);
    pthread_mutex_lock(&guard->caps_lock);
    struct CMicroHTTPD_AddressCount *entry = find(guard, family, length, key);
    if (entry == NULL && (entry = calloc(1, sizeof *entry)) != NULL) {
        entry->family = family;
        entry->length = length;
        memcpy(entry->address, key, length);
        size_t bucket = bucket_of(family, length, key);
        entry->next = guard->buckets[bucket];
        guard->buckets[bucket] = entry;
    }
    if (entry != NULL) {
        entry->count++;
        guard->total++;
    }
    pthread_mutex_unlock(&guard->caps_lock);
    return entry;
}

void caps_release(struct CMicroHTTPD_Guard *guard, struct CMicroHTTPD_AddressCount *entry) {
    if (entry == NULL) return;
    pthread_mutex_lock(&guard->caps_lock);
    guard->total--;
    if (--entry->count == 0) {
        struct CMicroHTTPD_AddressCount **link = &guard->buckets[bucket_of(entry->family, entry->length, entry->address)];
        while (*link != entry) link = &(*link)->next;
        *link = entry->next;
        free(entry);
    }
    pthread_mutex_unlock(&guard->caps_lock);
}

enum MHD_Result caps_accept(void *cls, const struct sockaddr *address, socklen_t length) {
    (void) length;
    struct CMicroHTTPD_Guard *guard = cls;
    int family;
    uint32_t key_length;
    unsigned char key[16];
    address_key(address, &family, &key_length, key);
    pthread_mutex_lock(&guard->caps_lock);
    bool open = guard->limits.max_connections == 0 || guard->total < guard->limits.max_connections;
    if (open && guard->limits.max_per_address != 0) {
        struct CMicroHTTPD_AddressCount *entry = find(guard, family, key_length, key);
        open = entry == NULL || entry->count < guard->limits.max_per_address;
    }
    pthread_mutex_unlock(&guard->caps_lock);
    return open ? MHD_YES : MHD_NO;
}

void CMicroHTTPD_guard_release_detached(struct CMicroHTTPD_Guard *guard, struct CMicroHTTPD_AddressCount *count) {
    caps_release(guard, count);
}

uint32_t CMicroHTTPD_guard_open_connections(struct CMicroHTTPD_Guard *guard) {
    pthread_mutex_lock(&guard->caps_lock);
    uint32_t total = guard->total;
    pthread_mutex_unlock(&guard->caps_lock);
    return total;
}
