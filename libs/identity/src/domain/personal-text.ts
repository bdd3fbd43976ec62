/**
 * Personal data (an email address, a display name, a token's label) as events and read models record it: sealed
 * with the key of the person (or address) it belongs to, which lives in the key store, outside the event store.
 * Destroying that key erases the text wherever the sealed value was copied. Deciders never look inside: to them a
 * sealed value is opaque, so sealing and opening happen in the application layer.
 *
 * `enc` is `v1:` and the base64 of a 12-byte IV, the AES-256-GCM ciphertext and its 16-byte tag; `subject` names
 * the key (`user:<userId>` or `address:<email key>`), which is also bound into the ciphertext as additional data.
 */
export interface Sealed {
  readonly enc: string;
  readonly subject: string;
}

/**
 * What a personal field of an event holds: a sealed value, or, in events recorded before personal data was
 * sealed, the text itself in clear (those events stay in the store as they were written).
 */
export type PersonalText = Sealed | string;
