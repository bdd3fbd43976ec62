/** Site types (plans) and the features each one brings. */
export const SITE_TYPES = ['basic', 'premium', 'ultimate', 'sponsored', 'legacy-basic', 'legacy-premium'] as const;
export type SiteType = (typeof SITE_TYPES)[number];

export const SITE_VISIBILITIES = ['public', 'unlisted', 'share-link', 'visitor-auth'] as const;
export type SiteVisibility = (typeof SITE_VISIBILITIES)[number];

type Plan = 'basic' | 'premium' | 'ultimate';

/** Each feature with the lowest current plan that has it. */
const FEATURE_PLANS: readonly (readonly [feature: string, plan: Plan])[] = [
  ['sites-basic-customization', 'basic'],
  ['sites-public-visibility', 'basic'],
  ['sites-unlisted-visibility', 'basic'],
  ['sites-full-text-search', 'basic'],
  ['sites-page-feedback', 'basic'],
  ['sites-pdf-export', 'basic'],
  ['sites-no-custom-domain', 'basic'],
  ['sites-custom-domain', 'premium'],
  ['sites-custom-subdirectory', 'premium'],
  ['sites-advanced-customization', 'premium'],
  ['sites-share-links', 'premium'],
  ['sites-redirects', 'premium'],
  ['sites-seo', 'premium'],
  ['sites-page-traffic-insights', 'premium'],
  ['sites-search-insights', 'premium'],
  ['sites-ai-search', 'premium'],
  ['sites-sections', 'ultimate'],
  ['sites-multivariant-site', 'ultimate'],
  ['sites-visitor-authentication', 'ultimate'],
  ['sites-adaptive-content', 'ultimate'],
  ['sites-ai-assistant', 'ultimate'],
  ['sites-advanced-insights', 'ultimate'],
  ['sites-custom-fonts', 'ultimate'],
  ['sites-api-playground', 'ultimate'],
  ['sites-preview-deployments', 'ultimate'],
];

const RANK: Record<Plan, number> = { basic: 0, premium: 1, ultimate: 2 };

/** Which current plan a type's features follow, and whether they are frozen (kept, but no longer changeable). */
const TYPE_PLANS: Record<SiteType, { plan: Plan; frozen: boolean }> = {
  basic: { plan: 'basic', frozen: false },
  premium: { plan: 'premium', frozen: false },
  ultimate: { plan: 'ultimate', frozen: false },
  sponsored: { plan: 'basic', frozen: false },
  'legacy-basic': { plan: 'basic', frozen: true },
  'legacy-premium': { plan: 'premium', frozen: true },
};

export interface SiteFeature {
  id: string;
  plan: SiteType;
  frozen: boolean;
}

/**
 * The features a site of this type has. Sponsored sites are basic sites that show ads; legacy types keep the
 * features of the plan they were sold as, frozen.
 */
export function featuresOf(type: SiteType): SiteFeature[] {
  const { plan, frozen } = TYPE_PLANS[type];
  const features: SiteFeature[] = FEATURE_PLANS.filter(([, needs]) => RANK[needs] <= RANK[plan]).map(([id, needs]) => ({
    id,
    plan: needs,
    frozen,
  }));
  if (type === 'sponsored') features.push({ id: 'sites-ads', plan: 'sponsored', frozen: true });
  return features;
}
