import { emailAddressDecider, organizationDecider, userDecider } from '../domain';
import { upcasting } from './personal-data/upcaster';

/**
 * The identity deciders as the application runs them: each folds its stream through the upcaster, so that events
 * recorded in older shapes are read in the current one. Use these (one instance each: `handleCommand` caches
 * folded states per decider) rather than the pure ones in domain/, which see current shapes only.
 */
export const users = upcasting(userDecider);
export const emailAddresses = upcasting(emailAddressDecider);
export const organizations = upcasting(organizationDecider);
