import { type IncomingHttpHeaders } from 'node:http';
/**
 * A push service of our own for the tests (issue 27, docs/decisions/0053): a local HTTP server that
 * records every request and answers as told (a status, or nothing at all to make the sender time out),
 * and a device's keys that decrypt what it received (RFC 8291) and check the VAPID JWT (RFC 8292).
 */
export interface ReceivedPush {
    path: string;
    headers: IncomingHttpHeaders;
    body: Buffer;
}
/** What the endpoint does with the next request: answer this status, or 'hang' (never answer). */
export type Answer = number | 'hang';
export interface PushEndpoint {
    /** `http://127.0.0.1:<port>` */
    origin: string;
    /** A fresh endpoint URL (a device's) on this server. */
    endpointUrl(): string;
    received: ReceivedPush[];
    /** Answers for the next requests, in order; after them every request gets 201. */
    answers: Answer[];
    close(): Promise<void>;
}
export declare function startPushEndpoint(): Promise<PushEndpoint>;
/** A browser's side of a push subscription: its P-256 key pair and 16-byte auth secret. */
export declare function deviceKeys(): {
    p256dh: string;
    auth: string;
    /**
     * RFC 8291 with RFC 8188's aes128gcm content coding: the header (salt, record size, the server's
     * public key as key id), the keys from ECDH and HKDF, one record decrypted, its padding removed.
     */
    decrypt(body: Buffer): string;
};
/**
 * RFC 8292: `Authorization: vapid t=<JWT>, k=<public key>`; the JWT is ES256 over the server's key, its
 * `aud` the endpoint's origin, `exp` within 24 hours, `sub` a contact. Returns the claims and the key.
 */
export declare function checkVapid(authorization: string | undefined, endpoint: string, now?: number): {
    claims: {
        aud: string;
        exp: number;
        sub: string;
    };
    publicKey: string;
};
