/**
 * Sends a review and reads the answer: the job (completed or failed) on success; on refusal, what
 * the reviewer must know. 409 `not_reviewable`: someone else reviewed it, or it is not waiting any
 * more; 422: the BFF's field errors ("results.3.value"), shown on the cells like our own checks.
 */
import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { HttpError, useDataProvider, useRefresh } from 'react-admin';
import { errorCodeOf } from '../../providers/errorCode';
import type { LabdeskDataProvider } from '../../providers/types';
import type { ParserJobRecord, ReviewBody } from '../types';

export interface ReviewProblem {
  message: string;
  /** The job cannot be reviewed (any more): editing is over. */
  notReviewable: boolean;
  errors: Record<string, string>;
}

function problemOf(error: unknown): ReviewProblem {
  if (error instanceof HttpError) {
    const body = (error.body ?? {}) as { errors?: Record<string, string> };
    if (errorCodeOf(error) === 'not_reviewable' || error.status === 409) {
      return {
        message: `This report can no longer be reviewed: ${error.message}. Someone else may have reviewed it, or it is no longer waiting for review.`,
        notReviewable: true,
        errors: {},
      };
    }
    return { message: error.message || `The review was not saved (HTTP ${error.status})`, notReviewable: false, errors: body.errors ?? {} };
  }
  return { message: error instanceof Error && error.message ? error.message : 'The review was not saved', notReviewable: false, errors: {} };
}

export function useSubmitReview(jobId: string) {
  const dataProvider = useDataProvider<LabdeskDataProvider>();
  const refresh = useRefresh();
  const [outcome, setOutcome] = useState<ParserJobRecord | null>(null);
  const [problem, setProblem] = useState<ReviewProblem | null>(null);
  const mutation = useMutation({
    mutationFn: (body: ReviewBody) => dataProvider.reviewParserJob(jobId, body),
    onMutate: () => setProblem(null),
    onSuccess: (job) => {
      setOutcome(job);
      refresh();
    },
    onError: (error: unknown) => {
      const next = problemOf(error);
      setProblem(next);
      // Show the job as it is now (reviewed by someone else, or no longer waiting).
      if (next.notReviewable) refresh();
    },
  });
  return { submit: mutation.mutate, isPending: mutation.isPending, outcome, problem };
}
