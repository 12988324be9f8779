/**
 * Read-only views of the order and billing systems, as the agents see them.
 * (In production these call the internal APIs; the demo keeps a small in-memory dataset.)
 */
export interface Customer {
  id: string;
  email: string;
  plan: 'free' | 'pro' | 'enterprise';
  openOrderIds: string[];
}

export interface OrderStatus {
  orderId: string;
  state: 'processing' | 'shipped' | 'delivered' | 'returned';
  carrier?: string;
  eta?: string;
}

const customers: Customer[] = [
  { id: 'cus_104', email: 'dana@example.com', plan: 'pro', openOrderIds: ['ord_5531'] },
  { id: 'cus_208', email: 'lee@example.org', plan: 'free', openOrderIds: [] },
];

const orders: Record<string, OrderStatus> = {
  ord_5531: { orderId: 'ord_5531', state: 'shipped', carrier: 'DHL', eta: '2025-06-14' },
};

export async function findCustomerByEmail(email: string): Promise<Customer | { error: string }> {
  return customers.find((c) => c.email === email.toLowerCase()) ?? { error: `no customer with email ${email}` };
}

export async function getOrderStatus(orderId: string): Promise<OrderStatus | { error: string }> {
  return orders[orderId] ?? { error: `unknown order ${orderId}` };
}

export async function getRefundEligibility(orderId: string): Promise<{ eligible: boolean; maxCents: number }> {
  const order = orders[orderId];
  return { eligible: order?.state === 'delivered', maxCents: order ? 4_999 : 0 };
}

export async function queueRefundForApproval(
  ticketId: string,
  refund: { orderId: string; amountCents: number; reason: string },
): Promise<{ queued: true; approvalId: string }> {
  return { queued: true, approvalId: `apr_${ticketId}_${refund.orderId}` };
}
