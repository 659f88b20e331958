/** Which records a campaign (history entry) holds; also the URL segment of its pages. */
export type CampaignType = 'notice' | 'credit-card';

const id = (value: string) => encodeURIComponent(value);

/** Every URL of the app. Routes use `path`; links and redirects use `getHref()`. */
export const paths = {
  home: { path: '/', getHref: () => '/' },
  auth: {
    login: { path: '/auth/login', getHref: () => '/auth/login' },
    signUp: { path: '/auth/sign-up', getHref: () => '/auth/sign-up' },
  },
  notices: {
    list: { path: '/forms/notice', getHref: () => '/forms/notice' },
    add: { path: '/forms/notice/add-notice', getHref: () => '/forms/notice/add-notice' },
    edit: {
      path: '/forms/notice/edit-notice/:id',
      getHref: (noticeId: string) => `/forms/notice/edit-notice/${id(noticeId)}`,
    },
  },
  creditCards: {
    list: { path: '/forms/credit-card', getHref: () => '/forms/credit-card' },
    add: { path: '/forms/credit-card/add-credit-card', getHref: () => '/forms/credit-card/add-credit-card' },
    edit: {
      path: '/forms/credit-card/edit-credit-card/:id',
      getHref: (creditCardId: string) => `/forms/credit-card/edit-credit-card/${id(creditCardId)}`,
    },
  },
  campaigns: {
    notices: { path: '/campaign/notice', getHref: () => '/campaign/notice' },
    creditCards: { path: '/campaign/credit-card', getHref: () => '/campaign/credit-card' },
    detail: {
      path: '/campaign/:type/:id',
      getHref: (type: CampaignType, campaignId: string) => `/campaign/${type}/${id(campaignId)}`,
    },
  },
  templates: {
    whatsapp: { path: '/templates/whatsapp-templates', getHref: () => '/templates/whatsapp-templates' },
    editWhatsapp: {
      path: '/templates/whatsapp-templates/edit/:id',
      getHref: (templateId: string) => `/templates/whatsapp-templates/edit/${id(templateId)}`,
    },
    email: { path: '/templates/email-templates', getHref: () => '/templates/email-templates' },
    editEmail: {
      path: '/templates/email-templates/edit/:id',
      getHref: (templateId: string) => `/templates/email-templates/edit/${id(templateId)}`,
    },
  },
  changePassword: { path: '/change-password', getHref: () => '/change-password' },
  auditLog: { path: '/audit-log', getHref: () => '/audit-log' },
  archive: { path: '/archive', getHref: () => '/archive' },
  users: { path: '/users', getHref: () => '/users' },
  jobs: { path: '/jobs', getHref: () => '/jobs' },
  responses: { path: '/responses', getHref: () => '/responses' },
  phoneCall: {
    path: '/phonecall',
    getHref: (phone: string) => `/phonecall?${new URLSearchParams({ phone }).toString()}`,
  },
} as const;
