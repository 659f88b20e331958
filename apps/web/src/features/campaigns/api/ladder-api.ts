import { ladderPaths, type CampaignLadder, type LadderBody } from '@notice-desk/contract/fallback';
import { api } from '../../../lib/api.ts';

/** A campaign's fallback ladder (its own, else its record kind's), and setting its own. */
export const ladderApi = api.injectEndpoints({
  endpoints: (build) => ({
    getCampaignLadder: build.query<CampaignLadder, { id: string }>({
      query: ({ id }) => ({ url: ladderPaths.campaign(id) }),
    }),
    setCampaignLadder: build.mutation<CampaignLadder, { id: string; body: LadderBody }>({
      query: ({ id, body }) => ({ url: ladderPaths.campaign(id), method: 'PUT', body }),
      // The answer is the ladder as it now stands: the query's cache takes it as it is.
      async onQueryStarted({ id }, { dispatch, queryFulfilled }) {
        const answer = await queryFulfilled.catch(() => undefined);
        if (answer) void dispatch(ladderApi.util.upsertQueryData('getCampaignLadder', { id }, answer.data));
      },
    }),
  }),
});

export const { useGetCampaignLadderQuery, useSetCampaignLadderMutation } = ladderApi;
