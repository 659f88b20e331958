import type { DashboardInfo } from '@notice-desk/contract/dashboard';
import { api } from '../../../lib/api.ts';

export const dashboardApi = api.injectEndpoints({
  endpoints: (build) => ({
    getDashboard: build.query<DashboardInfo, void>({
      query: () => '/api/dashboard',
      providesTags: ['DashboardInfo'],
    }),
  }),
});

export const { useGetDashboardQuery } = dashboardApi;
