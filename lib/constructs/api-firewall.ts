import { ArnFormat, Names, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { CfnLoggingConfiguration, CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';

export interface ApiFirewallProps {
  /** The API Gateway stage the web ACL protects. */
  readonly stage: Stage;
  /** Key that encrypts the WAF log group. */
  readonly logEncryptionKey: IKey;
}

/** Managed rule groups of the web ACL, in priority order. */
export const MANAGED_RULE_GROUPS = ['AWSManagedRulesAmazonIpReputationList', 'AWSManagedRulesCommonRuleSet'] as const;

/**
 * AWS WAF in front of the API stage: the Amazon IP reputation list (a flagged IP gets 403) and
 * the common rule set, whose body-size rule only counts because bodies up to 5 MB are legal (the
 * api function enforces the limit). Requests are logged with the Authorization header redacted.
 */
export class ApiFirewall extends Construct {
  readonly webAcl: CfnWebACL;
  readonly association: CfnWebACLAssociation;
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: ApiFirewallProps) {
    super(scope, id);
    const name = Names.uniqueResourceName(this, { maxLength: 100 });
    const visibility = (metricName: string): CfnWebACL.VisibilityConfigProperty => ({
      cloudWatchMetricsEnabled: true,
      metricName,
      sampledRequestsEnabled: true,
    });

    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      scope: 'REGIONAL',
      description: 'EDI Exchange API: IP reputation and common rules',
      defaultAction: { allow: {} },
      visibilityConfig: visibility(name),
      rules: [
        {
          name: MANAGED_RULE_GROUPS[0],
          priority: 0,
          overrideAction: { none: {} },
          statement: { managedRuleGroupStatement: { vendorName: 'AWS', name: MANAGED_RULE_GROUPS[0] } },
          visibilityConfig: visibility(`${name}-ip-reputation`),
        },
        {
          name: MANAGED_RULE_GROUPS[1],
          priority: 1,
          overrideAction: { none: {} },
          statement: {
            managedRuleGroupStatement: {
              vendorName: 'AWS',
              name: MANAGED_RULE_GROUPS[1],
              ruleActionOverrides: [{ name: 'SizeRestrictions_BODY', actionToUse: { count: {} } }],
            },
          },
          visibilityConfig: visibility(`${name}-common`),
        },
      ],
    });

    this.association = new CfnWebACLAssociation(this, 'WebAclAssociation', {
      resourceArn: props.stage.stageArn,
      webAclArn: this.webAcl.attrArn,
    });

    // WAF only logs to log groups whose name starts with aws-waf-logs-. The name is fixed, so a
    // retained group would block the next deployment after `cdk destroy`: this one is deleted.
    this.logGroup = new LogGroup(this, 'LogGroup', {
      logGroupName: `aws-waf-logs-${Names.uniqueResourceName(this, { maxLength: 120, separator: '-' })}`,
      retention: RetentionDays.ONE_MONTH,
      encryptionKey: props.logEncryptionKey,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    new CfnLoggingConfiguration(this, 'LoggingConfiguration', {
      resourceArn: this.webAcl.attrArn,
      // The log group ARN without the `:*` suffix of its Arn attribute, as WAF expects.
      logDestinationConfigs: [
        Stack.of(this).formatArn({
          service: 'logs',
          resource: 'log-group',
          resourceName: this.logGroup.logGroupName,
          arnFormat: ArnFormat.COLON_RESOURCE_NAME,
        }),
      ],
      // API keys travel in the Authorization header.
      redactedFields: [{ singleHeader: { Name: 'authorization' } }],
    });
  }
}
