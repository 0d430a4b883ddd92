import { Module } from '@nestjs/common';
import { AdminScreenController } from './admin-screen/admin-screen.controller';
import { ListReviewsController } from './list-reviews/list-reviews.controller';
import { ReconcileOrderController } from './reconcile-order/reconcile-order.controller';
import { ResolveReviewController } from './resolve-review/resolve-review.controller';
import { SearchJobsController } from './search-jobs/search-jobs.controller';
import { ReplayedAnswers } from './show-overview/replayed-answers';
import { ReviewMetrics } from './review-metrics/review-metrics';
import { ShowOverviewController } from './show-overview/show-overview.controller';
import { supportJobsProvider } from './support-jobs.provider';

/**
 * Support staff's screen and actions: find a job by any id a customer has, the needs-review list, the
 * duplicates absorbed and projection lag; reconcile an order with the provider now, resolve a review;
 * the count of cases in review on /metrics.
 */
@Module({
  controllers: [
    SearchJobsController,
    ListReviewsController,
    ShowOverviewController,
    ReconcileOrderController,
    ResolveReviewController,
    AdminScreenController,
  ],
  providers: [supportJobsProvider, ReplayedAnswers, ReviewMetrics],
})
export class SupportModule {}
