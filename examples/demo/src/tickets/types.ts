export interface Ticket {
  id: string;
  subject: string;
  body: string;
  customerEmail: string;
  /** ISO 639-1 code of the customer's language, when known. */
  language?: string;
}
