import { webhookDeliveriesProjection } from './webhook-deliveries.projection';
import { webhooksProjection } from './webhooks.projection';

export { webhooksProjection, webhookDeliveriesProjection };

export const webhookProjections = [webhooksProjection, webhookDeliveriesProjection];
