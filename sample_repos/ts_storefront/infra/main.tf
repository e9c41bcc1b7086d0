# Hosting for the storefront's built assets: an S3 bucket behind CloudFront,
# one stack per environment (staging, production).

terraform {
  required_version = ">= 1.5"
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 5.0"
    }
  }
}

variable "environment" {
  description = "Which stack this is: staging or production."
  type        = string
}

variable "price_cache_seconds" {
  description = "How long the CDN may serve a cached product page before asking the origin again."
  type        = number
  default     = 300
}

locals {
  bucket_name = "storefront-assets-${var.environment}"
}

# The built bundle (index.html, JS, CSS, images) uploaded by the deploy job.
resource "aws_s3_bucket" "assets" {
  bucket = local.bucket_name

  tags = {
    team        = "web"
    environment = var.environment
  }
}

# Only CloudFront may read the bucket; shoppers never reach S3 directly.
resource "aws_cloudfront_origin_access_control" "assets" {
  name                              = "${local.bucket_name}-oac"
  origin_access_control_origin_type = "s3"
  signing_behavior                  = "always"
  signing_protocol                  = "sigv4"
}

resource "aws_cloudfront_distribution" "shop" {
  enabled             = true
  default_root_object = "index.html"

  origin {
    domain_name              = aws_s3_bucket.assets.bucket_regional_domain_name
    origin_id                = "assets"
    origin_access_control_id = aws_cloudfront_origin_access_control.assets.id
  }

  default_cache_behavior {
    target_origin_id       = "assets"
    viewer_protocol_policy = "redirect-to-https"
    allowed_methods        = ["GET", "HEAD"]
    cached_methods         = ["GET", "HEAD"]
    default_ttl            = var.price_cache_seconds
  }

  restrictions {
    geo_restriction {
      restriction_type = "none"
    }
  }

  viewer_certificate {
    cloudfront_default_certificate = true
  }
}

output "shop_domain" {
  description = "The CDN's domain name, for the DNS record of the shop."
  value       = aws_cloudfront_distribution.shop.domain_name
}
